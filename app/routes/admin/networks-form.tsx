// The console's network form, shared by /admin/networks/new and /admin/networks/:id:
// every field of the listing and its placement on this console's site (listed,
// joining link, paid account, order). A refusal shows each field's message
// beside it and keeps what was typed.
import { Form, useNavigation } from "react-router";
import { ZodError } from "zod";
import type { AdminNetwork, CatalogueStatus } from "#contracts/catalogue.ts";
import { Fields, FormAlert, TextArea, TextField, useSettledActionData } from "#app/ui/form/Fields.tsx";
import type { FormValues } from "#app/ui/form/form.ts";

/** The form's fields: the only ones a refused post shows again. */
export const NETWORK_FORM_FIELDS = [
  "name",
  "slug",
  "description",
  "logoUrl",
  "website",
  "featured",
  "paymentTerms",
  "paymentMethods",
  "minimumPayment",
  "trackingPlatform",
  "commissionTypes",
  "listed",
  "joiningLink",
  "paidAccount",
  "displayOrder",
  "updatedAt",
] as const;

/**
 * The posted form as the editor reads it: this site's listing from the form,
 * the other sites' listings as they are saved.
 */
export function networkBody(values: FormValues, siteId: string, saved?: AdminNetwork): Record<string, unknown> {
  const checked = (name: string) => values[name] === "true";
  const others = (saved?.properties ?? [])
    .filter((p) => p.identifier !== siteId)
    .map(({ identifier, joiningLink, paidAccount, displayOrder }) => ({
      identifier,
      joiningLink,
      paidAccount,
      displayOrder,
    }));
  const own = checked("listed")
    ? [
        {
          identifier: siteId,
          joiningLink: values.joiningLink,
          paidAccount: checked("paidAccount"),
          displayOrder: values.displayOrder,
        },
      ]
    : [];
  return {
    name: values.name,
    slug: values.slug,
    description: values.description,
    logoUrl: values.logoUrl,
    website: values.website,
    featured: checked("featured"),
    paymentTerms: values.paymentTerms,
    paymentMethods: values.paymentMethods ?? "",
    minimumPayment: values.minimumPayment,
    trackingPlatform: values.trackingPlatform,
    commissionTypes: values.commissionTypes ?? "",
    properties: [...own, ...others],
    ...(values.updatedAt === undefined ? {} : { updatedAt: values.updatedAt }),
  };
}

/** This site's listing is the body's first property: its messages belong beside the form's own fields. */
export async function withFormFieldNames<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof ZodError)) throw err;
    throw new ZodError(
      err.issues.map((issue) => {
        const [head, index, field] = issue.path;
        if (head !== "properties") return issue;
        return { ...issue, path: index === 0 && typeof field === "string" ? [field] : ["listed"] };
      }),
    );
  }
}

/** How the console names a listing's status (networks and traffic sources alike). */
export const STATUS_LABELS: Record<CatalogueStatus, string> = {
  active: "Active",
  pending: "Pending",
  inactive: "Inactive",
  retired: "Retired",
};

/** Typed lists come back as one line each (a form may post a list field more than once). */
const oneLineLists = (values: FormValues): FormValues =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : v]));

const text = (v: string | number | null | undefined) => (v === null || v === undefined ? "" : String(v));

/** A saved network as the form shows it. */
function formValuesOf(n: AdminNetwork, siteId: string): FormValues {
  const own = n.properties.find((p) => p.identifier === siteId);
  return {
    name: n.name,
    slug: n.slug,
    description: n.description,
    logoUrl: text(n.logoUrl),
    website: text(n.website),
    featured: n.featured ? "true" : "",
    paymentTerms: text(n.paymentTerms),
    paymentMethods: n.paymentMethods.join(", "),
    minimumPayment: text(n.minimumPayment),
    trackingPlatform: text(n.trackingPlatform),
    commissionTypes: n.commissionTypes.join(", "),
    listed: own ? "true" : "",
    joiningLink: text(own?.joiningLink),
    paidAccount: own?.paidAccount ? "true" : "",
    displayOrder: text(own?.displayOrder),
  };
}

export function Flag({ name, label, values }: { name: string; label: string; values: FormValues }) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <input
        type="checkbox"
        name={name}
        value="true"
        defaultChecked={values[name] === "true"}
        className="h-4 w-4 rounded border-slate-300"
      />
      {label}
    </label>
  );
}

export function NetworkForm({
  network,
  siteId,
  siteName,
  submitLabel,
}: {
  /** The network edited; none when creating one. */
  network?: AdminNetwork;
  siteId: string;
  siteName: string;
  submitLabel: string;
}) {
  const result = useSettledActionData();
  const mine = result && (result.values?.intent ?? "save") === "save" ? result : undefined;
  const values =
    mine && !mine.ok ? oneLineLists(mine.values ?? {}) : network ? formValuesOf(network, siteId) : { listed: "true" };
  const errors = mine?.errors ?? {};
  const busy = useNavigation().state === "submitting";
  return (
    <Form method="post" className="card space-y-4" data-testid="network-form" key={network?.updatedAt ?? "new"}>
      <input type="hidden" name="intent" value="save" />
      {network && <input type="hidden" name="updatedAt" value={network.updatedAt} />}
      <Fields errors={errors} values={values} markRequired idPrefix="network">
        <FormAlert result={mine} />
        {mine?.ok && mine.message && (
          <p role="status" className="text-sm text-green-800" data-testid="save-result">
            {mine.message}
          </p>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField name="name" label="Name" required maxLength={200} />
          <TextField name="slug" label="Slug" hint="Made from the name when left empty." maxLength={120} />
        </div>
        <TextArea name="description" label="Description" rows={4} maxLength={5000} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField name="website" label="Website" maxLength={2000} />
          <TextField name="logoUrl" label="Logo URL" hint="https://… or /media/…" maxLength={2000} />
        </div>
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField name="paymentTerms" label="Payment terms" hint="e.g. Net 30" maxLength={100} />
          <TextField name="minimumPayment" label="Minimum payment (USD)" inputMode="decimal" />
          <TextField name="trackingPlatform" label="Tracking platform" maxLength={100} />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField name="paymentMethods" label="Payment methods" hint="Comma-separated, e.g. PayPal, Wire" />
          <TextField name="commissionTypes" label="Commission types" hint="Comma-separated, e.g. CPA, CPL" />
        </div>
        <Flag name="featured" label="Featured" values={values} />
        <fieldset className="rounded border border-slate-200 p-3" data-testid="site-listing">
          <legend className="px-1 text-sm font-semibold text-slate-700">On {siteName}</legend>
          <Flag name="listed" label={`Listed on ${siteName}`} values={values} />
          {errors.listed && (
            <p className="field-error" data-field-error="listed">
              {errors.listed}
            </p>
          )}
          <div className="mt-3 grid gap-4 sm:grid-cols-3">
            <TextField name="joiningLink" label="Joining link" maxLength={2000} />
            <TextField
              name="displayOrder"
              label="Order"
              hint="1 is shown first; empty keeps it in the shuffled rest."
              inputMode="numeric"
            />
            <div className="pt-6">
              <Flag name="paidAccount" label="Paid account" values={values} />
            </div>
          </div>
        </fieldset>
      </Fields>
      <button type="submit" className="btn-primary" disabled={busy}>
        {submitLabel}
      </button>
    </Form>
  );
}
