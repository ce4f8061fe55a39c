// The console's house-ad form, shared by /admin/ads/new and /admin/ads/:id: slot
// size, text or image, target, dates, weight, site and the search-bar keywords. A
// refusal shows each field's message beside it and keeps what was typed.
import { AD_FORM_FIELDS, AD_SIZES, AD_WEIGHT_MAX, KEYWORD_AD_SIZE, type AdminHouseAd } from "#contracts/ads.ts";
import { ConsoleForm } from "#app/ui/admin/ConsoleForm.tsx";
import { SelectField, TextArea, TextField } from "#app/ui/form/Fields.tsx";
import type { FormValues } from "#app/ui/form/form.ts";

/** The posted form as the service reads it (the contract parses form text and JSON alike). */
export function adBody(values: FormValues): Record<string, unknown> {
  return Object.fromEntries(AD_FORM_FIELDS.map((name) => [name, values[name]]));
}

/** A saved ad as the form shows it. */
function formValuesOf(ad: AdminHouseAd): FormValues {
  return {
    size: ad.size,
    headline: ad.headline,
    body: ad.body,
    imageUrl: ad.imageUrl ?? "",
    targetUrl: ad.targetUrl,
    startsOn: ad.startsOn,
    endsOn: ad.endsOn ?? "",
    weight: String(ad.weight),
    siteId: ad.siteId ?? "",
    keywords: ad.keywords.join(", "),
  };
}

export function AdForm({
  ad,
  sites,
  today,
  submitLabel,
}: {
  /** The ad edited; none when creating one. */
  ad?: AdminHouseAd;
  sites: readonly string[];
  /** The new ad's start (UTC day). */
  today: string;
  submitLabel: string;
}) {
  return (
    // A saved edit remounts the fields, so they show what was saved.
    <div className="card" data-testid="ad-form" key={ad?.updatedAt ?? "new"}>
      <ConsoleForm
        intent="save"
        submitLabel={submitLabel}
        hidden={ad ? { updatedAt: ad.updatedAt } : undefined}
        defaults={ad ? formValuesOf(ad) : { startsOn: today, weight: "1" }}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField name="size" label="Slot size" options={AD_SIZES} placeholder="Choose a size" required />
          <SelectField name="siteId" label="Site" options={sites} placeholder="All sites" />
        </div>
        <TextField
          name="headline"
          label="Headline"
          required
          maxLength={80}
          hint="Also the image's text for screen readers."
        />
        <TextArea name="body" label="Body" rows={2} maxLength={200} />
        <TextField
          name="imageUrl"
          label="Image URL"
          hint="An https address or a path on this site; empty: a text ad."
          maxLength={2000}
        />
        <TextField
          name="targetUrl"
          label="Target URL"
          required
          hint="An http(s) address or a path on this site, e.g. /advertise."
          maxLength={2000}
        />
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField name="startsOn" label="Start date" type="date" required hint="UTC day." />
          <TextField name="endsOn" label="End date" type="date" hint="UTC day, included; empty: no end." />
          <TextField
            name="weight"
            label="Weight"
            type="number"
            min={1}
            max={AD_WEIGHT_MAX}
            required
            hint="Shown in proportion to the weights of its size."
          />
        </div>
        <TextField
          name="keywords"
          label="Keywords"
          hint={`${KEYWORD_AD_SIZE} only: comma-separated search words it answers to; empty: shown when no keyword matches.`}
          maxLength={1500}
        />
      </ConsoleForm>
    </div>
  );
}
