// The console's traffic source form, shared by /admin/traffic-sources/new and
// /admin/traffic-sources/:id. A refusal shows each field's message beside it
// and keeps what was typed.
import { Form, useNavigation } from "react-router";
import type { AdminTrafficSource } from "#contracts/catalogue.ts";
import { Fields, FormAlert, TextArea, TextField, useSettledActionData } from "#app/ui/form/Fields.tsx";
import type { FormValues } from "#app/ui/form/form.ts";
import { Flag } from "./networks-form";

/** The form's fields: the only ones a refused post shows again. */
export const TRAFFIC_SOURCE_FORM_FIELDS = [
  "name",
  "slug",
  "description",
  "website",
  "logoUrl",
  "featured",
  "adFormats",
  "pricingModels",
  "minimumDeposit",
  "geos",
  "updatedAt",
] as const;

/** The posted form as the editor reads it. */
export function trafficSourceBody(values: FormValues): Record<string, unknown> {
  return {
    name: values.name,
    slug: values.slug,
    description: values.description,
    website: values.website,
    logoUrl: values.logoUrl,
    featured: values.featured === "true",
    adFormats: values.adFormats ?? "",
    pricingModels: values.pricingModels ?? "",
    minimumDeposit: values.minimumDeposit,
    geos: values.geos ?? "",
    ...(values.updatedAt === undefined ? {} : { updatedAt: values.updatedAt }),
  };
}

const text = (v: string | number | null | undefined) => (v === null || v === undefined ? "" : String(v));

function formValuesOf(s: AdminTrafficSource): FormValues {
  return {
    name: s.name,
    slug: s.slug,
    description: s.description,
    website: text(s.website),
    logoUrl: text(s.logoUrl),
    featured: s.featured ? "true" : "",
    adFormats: s.adFormats.join(", "),
    pricingModels: s.pricingModels.join(", "),
    minimumDeposit: text(s.minimumDeposit),
    geos: s.geos.join(", "),
  };
}

export function TrafficSourceForm({ source, submitLabel }: { source?: AdminTrafficSource; submitLabel: string }) {
  const result = useSettledActionData();
  const mine = result && (result.values?.intent ?? "save") === "save" ? result : undefined;
  const values = mine && !mine.ok ? (mine.values ?? {}) : source ? formValuesOf(source) : {};
  const busy = useNavigation().state === "submitting";
  return (
    <Form method="post" className="card space-y-4" data-testid="traffic-source-form" key={source?.updatedAt ?? "new"}>
      <input type="hidden" name="intent" value="save" />
      {source && <input type="hidden" name="updatedAt" value={source.updatedAt} />}
      <Fields errors={mine?.errors} values={values} markRequired idPrefix="traffic-source">
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
          <TextField name="adFormats" label="Ad formats" hint="Comma-separated, e.g. Push, Native" />
          <TextField name="pricingModels" label="Pricing models" hint="Comma-separated, e.g. CPC, CPM" />
          <TextField name="minimumDeposit" label="Minimum deposit (USD)" inputMode="decimal" />
        </div>
        <TextField name="geos" label="Geos" hint="Country codes, comma-separated, e.g. US, DE" />
        <Flag name="featured" label="Featured (listed first)" values={values} />
      </Fields>
      <button type="submit" className="btn-primary" disabled={busy}>
        {submitLabel}
      </button>
    </Form>
  );
}
