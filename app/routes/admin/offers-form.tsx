// The console's offer form, shared by /admin/offers/new and /admin/offers/:id:
// every field the operator sets, countries and verticals as multi-selects, and
// the sponsorship (flag, keywords, window). A refusal shows each field's message
// beside it and keeps what was typed.
import { Form, useLocation, useNavigation } from "react-router";
import { EDITABLE_STATUSES, PAYOUT_TYPES, type AdminOffer, type OfferChoices } from "#contracts/offers.ts";
import { Fields, FormAlert, SelectField, TextArea, TextField, useSettledActionData } from "#app/ui/form/Fields.tsx";
import type { FormValues } from "#app/ui/form/form.ts";
import { MultiSelect, type Option } from "#app/ui/MultiSelect.tsx";

/** The form's fields: the only ones a refused post shows again. */
export const OFFER_FORM_FIELDS = [
  "name",
  "networkId",
  "slug",
  "description",
  "previewUrl",
  "landingDomain",
  "externalId",
  "payoutType",
  "payoutAmount",
  "payoutPercent",
  "currency",
  "countries",
  "categoryIds",
  "mobile",
  "ppc",
  "allowedTraffic",
  "restrictedTraffic",
  "status",
  "sponsored",
  "sponsoredKeywords",
  "sponsoredFrom",
  "sponsoredUntil",
  "updatedAt",
] as const;

/** The posted form as the editor reads it (the contract parses form text and JSON alike). */
export function offerBody(values: FormValues): Record<string, unknown> {
  return Object.fromEntries(OFFER_FORM_FIELDS.map((name) => [name, values[name]]));
}

const text = (v: string | number | null | undefined) => (v === null || v === undefined ? "" : String(v));

/** A saved offer as the form shows it. */
function formValuesOf(offer: AdminOffer): FormValues {
  return {
    name: offer.name,
    networkId: String(offer.networkId),
    slug: offer.slug,
    description: offer.description,
    previewUrl: text(offer.previewUrl),
    landingDomain: text(offer.landingDomain),
    externalId: text(offer.externalId),
    payoutType: offer.payoutType,
    payoutAmount: text(offer.payoutAmount),
    payoutPercent: text(offer.payoutPercent),
    currency: offer.currency,
    countries: offer.countries,
    categoryIds: offer.categoryIds.map(String),
    mobile: offer.mobile ? "true" : "",
    ppc: offer.ppc ? "true" : "",
    allowedTraffic: offer.allowedTraffic.join(", "),
    restrictedTraffic: offer.restrictedTraffic.join(", "),
    status: offer.status,
    sponsored: offer.sponsored ? "true" : "",
    sponsoredKeywords: offer.sponsoredKeywords.join(", "),
    sponsoredFrom: text(offer.sponsoredFrom),
    sponsoredUntil: text(offer.sponsoredUntil),
  };
}

const NEW_OFFER: FormValues = { currency: "USD", payoutType: "CPA", status: "active" };

const list = (v: string | string[] | undefined) => (Array.isArray(v) ? v : v ? [v] : []);

function Flag({ name, label, values }: { name: string; label: string; values: FormValues }) {
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

/** A labelled control the kit has no widget for, with its message beside it. */
function Labelled({
  name,
  label,
  errors,
  children,
}: {
  name: string;
  label: string;
  errors: Record<string, string>;
  children: React.ReactNode;
}) {
  return (
    <div>
      <p id={`offer-${name}-label`} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </p>
      {children}
      {errors[name] && (
        <p className="field-error" data-field-error={name}>
          {errors[name]}
        </p>
      )}
    </div>
  );
}

export function OfferForm({
  choices,
  offer,
  submitLabel,
}: {
  choices: OfferChoices;
  /** The offer edited; none when creating one. */
  offer?: AdminOffer;
  submitLabel: string;
}) {
  const result = useSettledActionData();
  const mine = result && (result.values?.intent ?? "save") === "save" ? result : undefined;
  const values = mine && !mine.ok ? (mine.values ?? {}) : offer ? formValuesOf(offer) : NEW_OFFER;
  const errors = mine?.errors ?? {};
  const busy = useNavigation().state === "submitting";
  const { search } = useLocation();
  const showAll = new URLSearchParams(search).get("all");
  const countryOptions: Option[] = choices.countries.map((c) => ({ value: c.code, label: c.name }));
  const verticalOptions: Option[] = choices.categories.map((c) => ({ value: String(c.id), label: c.name }));
  return (
    <Form method="post" className="card space-y-4" data-testid="offer-form" key={offer?.updatedAt ?? "new"}>
      <input type="hidden" name="intent" value="save" />
      {offer && <input type="hidden" name="updatedAt" value={offer.updatedAt} />}
      <Fields errors={errors} values={values} markRequired idPrefix="offer">
        <FormAlert result={mine} />
        {mine?.ok && mine.message && (
          <p role="status" className="text-sm text-green-800" data-testid="save-result">
            {mine.message}
          </p>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField name="name" label="Name" required maxLength={200} />
          <Labelled name="networkId" label="Network" errors={errors}>
            <select
              name="networkId"
              aria-labelledby="offer-networkId-label"
              defaultValue={typeof values.networkId === "string" ? values.networkId : ""}
              className="input"
              required
            >
              <option value="">Choose a network</option>
              {choices.networks.map((n) => (
                <option key={n.id} value={n.id}>
                  {n.name}
                </option>
              ))}
            </select>
          </Labelled>
          <TextField name="slug" label="Slug" hint="Made from the name when left empty." maxLength={200} />
          <SelectField name="status" label="Status" options={EDITABLE_STATUSES} placeholder="Status" required />
        </div>
        <TextArea name="description" label="Description" rows={4} maxLength={5000} />
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField name="previewUrl" label="Preview URL" maxLength={2000} />
          <TextField name="landingDomain" label="Landing domain" hint="example.com" maxLength={253} />
          <TextField name="externalId" label="Network's offer id" maxLength={100} />
        </div>
        <div className="grid gap-4 sm:grid-cols-4">
          <SelectField name="payoutType" label="Payout type" options={PAYOUT_TYPES} placeholder="Type" required />
          <TextField name="payoutAmount" label="Payout amount" inputMode="decimal" />
          <SelectField name="currency" label="Currency" options={choices.currencies} placeholder="Currency" required />
          <TextField name="payoutPercent" label="Payout %" inputMode="decimal" />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <Labelled name="countries" label="Countries" errors={errors}>
            <MultiSelect
              label="Countries"
              name="countries"
              list={{ count: countryOptions.length, options: countryOptions }}
              loadAll={async () => countryOptions}
              selected={list(values.countries)}
              placeholder="No countries"
              showAll={showAll === "countries"}
              showAllHref="?all=countries"
            />
          </Labelled>
          <Labelled name="categoryIds" label="Verticals" errors={errors}>
            <MultiSelect
              label="Verticals"
              name="categoryIds"
              list={{ count: verticalOptions.length, options: verticalOptions }}
              loadAll={async () => verticalOptions}
              selected={list(values.categoryIds)}
              placeholder="No verticals"
              showAll={showAll === "categoryIds"}
              showAllHref="?all=categoryIds"
            />
          </Labelled>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField name="allowedTraffic" label="Allowed traffic" hint="Comma-separated, e.g. Email, Search" />
          <TextField name="restrictedTraffic" label="Restricted traffic" hint="Comma-separated" />
        </div>
        <div className="flex flex-wrap gap-6">
          <Flag name="mobile" label="Mobile" values={values} />
          <Flag name="ppc" label="Pay per call" values={values} />
        </div>
        <fieldset className="rounded border border-amber-200 bg-amber-50 p-3">
          <legend className="px-1 text-sm font-semibold text-slate-700">Sponsorship</legend>
          <Flag name="sponsored" label="Sponsored" values={values} />
          <div className="mt-3 grid gap-4 sm:grid-cols-3">
            <TextField
              name="sponsoredKeywords"
              label="Keywords"
              hint="Comma-separated; empty: every search"
              maxLength={2500}
            />
            <TextField name="sponsoredFrom" label="From (UTC day)" type="date" />
            <TextField name="sponsoredUntil" label="Until (UTC day, included)" type="date" />
          </div>
        </fieldset>
      </Fields>
      <button type="submit" className="btn-primary" disabled={busy}>
        {submitLabel}
      </button>
    </Form>
  );
}
