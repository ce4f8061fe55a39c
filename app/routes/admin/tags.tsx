// /admin/tags: the site's third-party tags (docs/decisions/0014): the ad server's
// ad unit per slot size (Google Publisher Tag), the analytics id (Google
// Analytics 4), the social pixel (Meta Pixel) and whether visitors are asked
// first. A save made from a stale page answers 409 (core/sites/tags.ts).
import { useLoaderData } from "react-router";
import { TAG_SLOT_SIZES, type SiteTags } from "#contracts/tags.ts";
import { ConsoleForm } from "#app/ui/admin/ConsoleForm.tsx";
import { dateTime } from "#app/ui/admin/format.ts";
import { CheckboxGroup, TextField } from "#app/ui/form/Fields.tsx";
import type { FormValues } from "#app/ui/form/form.ts";
import { consoleAction, requireStaff } from "./staff.server";
import type { Route } from "./+types/tags";
import { consoleMeta } from "./console-meta";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "Tags");

const ASK_FIRST = "Ask visitors before any tag loads";
const slotField = (size: string) => `gptSlots.${size}`;
const FIELDS = [
  "analyticsId",
  "pixelId",
  "gptNetworkCode",
  "consentRequired",
  "updatedAt",
  ...TAG_SLOT_SIZES.map(slotField),
];

export async function loader(args: Route.LoaderArgs) {
  const { services, site } = requireStaff(args, "admin");
  return { tags: await services.siteTags.get(site.id) };
}

export async function action(args: Route.ActionArgs) {
  return consoleAction(args, "admin", FIELDS, {
    save: async (values, { services, site, user }) => {
      const text = (name: string) => (typeof values[name] === "string" ? values[name] : "");
      await services.siteTags.save(
        { siteId: site.id, userId: user.id },
        {
          updatedAt: text("updatedAt") || null,
          analyticsId: text("analyticsId"),
          pixelId: text("pixelId"),
          gptNetworkCode: text("gptNetworkCode"),
          gptSlots: Object.fromEntries(TAG_SLOT_SIZES.map((size) => [size, text(slotField(size))])),
          consentRequired: values.consentRequired !== undefined,
        },
      );
      return "Saved. Pages load the new tags within a few seconds.";
    },
  });
}

/** What the fields show: the saved settings. */
function savedValues(tags: SiteTags): FormValues {
  return {
    analyticsId: tags.analyticsId ?? "",
    pixelId: tags.pixelId ?? "",
    gptNetworkCode: tags.gptNetworkCode ?? "",
    consentRequired: tags.consentRequired ? [ASK_FIRST] : [],
    ...Object.fromEntries(TAG_SLOT_SIZES.map((size) => [slotField(size), tags.gptSlots[size] ?? ""])),
  };
}

export default function TagsPage() {
  const { tags } = useLoaderData<typeof loader>();
  return (
    <section className="max-w-2xl">
      <h1 className="mb-1 text-2xl font-semibold">Third-party tags</h1>
      <p className="mb-4 text-sm text-slate-600">
        Leave every id empty and nothing third-party loads: no consent banner, house ads in every slot.{" "}
        {tags.updatedAt ? `Last saved ${dateTime(tags.updatedAt)}.` : "Never saved."}
      </p>
      {/* Remounted after a save, so the fields show what was stored. */}
      <ConsoleForm
        key={tags.updatedAt ?? "unsaved"}
        intent="save"
        submitLabel="Save tags"
        hidden={{ updatedAt: tags.updatedAt ?? "" }}
        defaults={savedValues(tags)}
      >
        <fieldset className="card space-y-3">
          <legend className="px-1 text-sm font-semibold">Page analytics and social pixel</legend>
          <TextField
            name="analyticsId"
            label="Google Analytics 4 measurement id"
            hint="Looks like G-ABC123DEF4 (Admin → Data streams in Google Analytics)."
            autoComplete="off"
          />
          <TextField
            name="pixelId"
            label="Meta Pixel id"
            hint="The pixel's number, 10 to 20 digits (Events Manager)."
            inputMode="numeric"
            autoComplete="off"
          />
        </fieldset>
        <fieldset className="card space-y-3">
          <legend className="px-1 text-sm font-semibold">Ad server (Google Publisher Tag)</legend>
          <TextField
            name="gptNetworkCode"
            label="Ad Manager network code"
            hint="Digits only; every ad unit below belongs to it."
            inputMode="numeric"
            autoComplete="off"
          />
          {TAG_SLOT_SIZES.map((size) => (
            <TextField
              key={size}
              name={slotField(size)}
              label={`Ad unit for ${size}`}
              hint={
                size === "728x90"
                  ? "The code after the network code, e.g. offeratlas/header. Empty: house ads."
                  : undefined
              }
              autoComplete="off"
            />
          ))}
        </fieldset>
        <fieldset className="card">
          <legend className="px-1 text-sm font-semibold">Consent</legend>
          <CheckboxGroup name="consentRequired" label="Visitors' consent" options={[ASK_FIRST]} columns={2} />
          <p className="mt-1 text-xs text-slate-500">
            Untick only where the law does not require consent: tags then load for everyone who has not rejected them
            from &ldquo;Cookie settings&rdquo;.
          </p>
        </fieldset>
      </ConsoleForm>
    </section>
  );
}
