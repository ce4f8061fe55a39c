// Everflow's affiliate API (developers.everflow.io, Affiliate API → Offers):
// `GET {endpoint}/v1/affiliates/alloffers` with the `X-Eflow-API-Key` header,
// paged with `page` (1-based) and `page_size` in the query string; the answer is
// `{ offers: [...], paging: { page, page_size, total_count } }`. An offer carries
// `network_offer_id`, `name`, `offer_status`, `currency_id`, `html_description`,
// `preview_url`, `tracking_url` (per affiliate: never stored), `time_saved` and
// `relationship` with `category` ({ name }), `payouts` ({ total, entries: [{
// payout_type, payout_amount, payout_percentage }] }) and `ruleset` ({ countries:
// [{ country_code, targeting_type: include|exclude }] }). Payout types: cpa, cpc,
// cpm, cps (percent of the sale), cpa_cps (both), prv (private), and their `_sku`
// variants for price-per-product offers.
//
// Checked against the documentation (2026-11-23): the endpoint, header, paging and
// envelope are as above (developers.everflow.io, Affiliate API → Offers, "Find All
// Visible"); the API reference's response of "Find All Runnable" (same offer object)
// shows `relationship.category.name` and relationship lists wrapped as `{ entries,
// total }` (channels, creatives), the wrapper `relationship.payouts.entries` assumes.
// The payout and ruleset parts of that response were not in the text available to
// us: `relationship.payouts.entries[].payout_type/payout_amount/payout_percentage`
// and `relationship.ruleset.countries[].country_code/targeting_type` match the
// field names of the network API's payout and targeting settings and a third-party
// affiliate client, so they stay; the mapping skips an offer without a payout
// rather than guess one, and ignores a ruleset it cannot read.
import {
  amountOf,
  cleanName,
  cleanText,
  currencyOf,
  landingDomainOf,
  numberOf,
  percentOf,
  plainDescription,
  skip,
  sortedUnique,
  webAddress,
  type DirectoryPayoutType,
  type MapResult,
} from "#core/supply/mapping.ts";
import { isObject, jsonOf, platformGet, PlatformError, type HttpPatience } from "./http.ts";

export type EverflowOptions = HttpPatience & {
  endpoint: string;
  apiKey: string;
  pageSize?: number;
  fetch?: typeof fetch;
};

const PAGE_SIZE = 500;
const MAX_PAGES = 100_000;

/** The address of one page: the endpoint's own path (if any) then /v1/affiliates/alloffers. */
function pageUrl(endpoint: string, page: number, pageSize: number): URL {
  const base = endpoint.replace(/\/+$/, "");
  const url = new URL(`${base}/v1/affiliates/alloffers`);
  url.searchParams.set("page", String(page));
  url.searchParams.set("page_size", String(pageSize));
  return url;
}

async function fetchPage(options: EverflowOptions & { pageSize: number }, page: number) {
  const what = `page ${page}`;
  const res = await platformGet({
    ...options,
    platform: "Everflow",
    what,
    url: pageUrl(options.endpoint, page, options.pageSize),
    headers: { "X-Eflow-API-Key": options.apiKey },
    authHint: "check the source's affiliate API key (Everflow → My Account → API).",
  });
  const body = await jsonOf(res, "Everflow", what);
  const offers = isObject(body) ? body.offers : undefined;
  if (!Array.isArray(offers)) throw new PlatformError(`Everflow's page ${page} has no "offers" list`);
  const paging = isObject(body) && isObject(body.paging) ? body.paging : {};
  return { offers: offers as unknown[], total: numberOf(paging.total_count) };
}

/** The raw offers of an affiliate account, one page at a time (never the whole catalogue at once). */
export async function* everflowPages(options: EverflowOptions): AsyncGenerator<unknown[]> {
  const settings = { ...options, pageSize: options.pageSize ?? PAGE_SIZE };
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { offers, total } = await fetchPage(settings, page);
    if (offers.length) yield offers;
    const fetched = (page - 1) * settings.pageSize + offers.length;
    // The last page: short, empty, or reaching the documented total.
    if (offers.length < settings.pageSize || (total !== undefined && fetched >= total)) return;
  }
}

// Everflow payout type → the directory's (and whether it pays an amount, a percent or both).
const PAYOUT_TYPES: Record<string, { type: DirectoryPayoutType; amount: boolean; percent: boolean }> = {
  cpa: { type: "CPA", amount: true, percent: false },
  cpc: { type: "CPC", amount: true, percent: false },
  cps: { type: "CPS", amount: false, percent: true },
  cpa_cps: { type: "revshare", amount: true, percent: true },
};

/** One Everflow offer → the directory's offer, or why it is skipped. */
export function mapEverflowOffer(raw: unknown): MapResult {
  if (!isObject(raw)) return skip("not an object");
  const id = numberOf(raw.network_offer_id);
  if (id === undefined || !Number.isInteger(id) || id <= 0) return skip("missing network_offer_id");
  const name = cleanName(raw.name);
  if (!name) return skip("missing name");

  const status = raw.offer_status === "active" ? "active" : raw.offer_status === "paused" ? "paused" : undefined;
  if (!status) return skip(`offer_status ${cleanText(raw.offer_status, 30) || "missing"}`);

  const currency = currencyOf(raw.currency_id);
  if (!currency) return skip(`unknown currency ${cleanText(raw.currency_id, 10) || "(none)"}`);

  const relationship = isObject(raw.relationship) ? raw.relationship : {};
  const payouts = isObject(relationship.payouts) ? relationship.payouts.entries : undefined;
  const entries = Array.isArray(payouts) ? payouts.filter(isObject) : [];
  const entry = entries.find((e) => e.is_default === true) ?? entries[0];
  if (!entry) return skip("no payout");
  const everflowType = typeof entry.payout_type === "string" ? entry.payout_type.replace(/_sku$/, "") : "";
  const rule = PAYOUT_TYPES[everflowType];
  if (!rule) return skip(`unsupported payout type ${cleanText(entry.payout_type, 20) || "(none)"}`);
  const amount = rule.amount ? amountOf(entry.payout_amount) : null;
  const percent = rule.percent ? percentOf(entry.payout_percentage) : null;
  if (amount === undefined || percent === undefined) return skip("invalid payout");

  const ruleset = isObject(relationship.ruleset) ? relationship.ruleset : {};
  const countries = Array.isArray(ruleset.countries)
    ? ruleset.countries
        .filter(isObject)
        .filter((c) => c.targeting_type !== "exclude")
        .map((c) => (typeof c.country_code === "string" ? c.country_code.trim().toUpperCase() : ""))
        .filter((code) => /^[A-Z]{2}$/.test(code))
    : [];
  const category = isObject(relationship.category) ? cleanName(relationship.category.name) : undefined;

  const previewUrl = webAddress(raw.preview_url);
  return {
    ok: true,
    offer: {
      externalId: String(id),
      name,
      description: plainDescription(raw.html_description),
      previewUrl,
      landingDomain: landingDomainOf(previewUrl),
      payoutType: rule.type,
      payoutAmount: amount,
      payoutPercent: percent,
      currency,
      countries: sortedUnique(countries),
      categories: category ? [category] : [],
      status,
    },
  };
}
