// TUNE's (HasOffers) affiliate API (developers.tune.com: Affiliate_Offer::findAll, the
// affiliate Offer model, "Filtering, Sorting & Paging" and the guide "Importing Offers
// from Another Network"): `GET https://NETWORKID.api.hasoffers.com/Apiv3/json?api_key=…
// &Target=Affiliate_Offer&Method=findAll` with `limit` (items per page; all of them
// when absent) and `page` (1-based), and `contain[]=OfferCategory&contain[]=Country`
// for the categories and the geo-targeting. The Offer model: `id`, `name`,
// `description` (HTML), `preview_url`, `currency` (null: the network's default),
// `default_payout` (the flat amount), `percent_payout`, `payout_type` (cpa_flat,
// cpa_percentage, cpa_both, cpc, cpm), `status`, `expiration_date` and `modified`.
// Tracking links come from another call (generateTrackingLink), per affiliate: never
// asked for, never stored.
// Not spelled out in the reference pages, taken from the published clients of the API:
// every answer is an envelope `{ request, response: { status, httpStatus, data, errors,
// errorMessage } }`, status 1 on success and -1 with `errors: [{ publicMessage |
// err_msg }]` otherwise (an HTTP 200 either way: a refused key, an IP the network has
// not whitelisted, and the rate limit "API usage exceeded rate limit" all come so); a
// paged `data` is `{ page, current, count, pageCount, data: { [offer id]: { Offer,
// OfferCategory: { [id]: { id, name } }, Country: { [code]: { code, name } } } } }`.
import { COUNTRIES } from "#core/reference/countries.ts";
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
import {
  isObject,
  jsonOf,
  platformGet,
  PlatformAuthError,
  PlatformError,
  withDefaults,
  type HttpPatience,
} from "./http.ts";

export type TuneOptions = HttpPatience & {
  /** The network's API host, e.g. https://NETWORKID.api.hasoffers.com. */
  endpoint: string;
  apiKey: string;
  pageSize?: number;
  /** Sent as NetworkId, for networks reached through the shared api.hasoffers.com host. */
  networkId?: string;
  /** The network's default currency, for offers whose own is null. */
  currency?: string;
  fetch?: typeof fetch;
};

/** A source's non-secret settings: page_size (1–1000), network_id, currency (the network's default). */
export function tuneSettings(
  settings: Record<string, unknown>,
): Pick<TuneOptions, "pageSize" | "networkId" | "currency"> {
  const pageSize = Number(settings.page_size);
  const networkId = typeof settings.network_id === "string" ? settings.network_id.trim() : "";
  return {
    pageSize: Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= 1000 ? pageSize : undefined,
    networkId: /^[A-Za-z0-9_-]{1,100}$/.test(networkId) ? networkId : undefined,
    currency: currencyOf(settings.currency),
  };
}

const PLATFORM = "TUNE";
const PAGE_SIZE = 500;
const MAX_PAGES = 100_000;
/** Same patience as platformGet's own, for rate limits answered in the body. */
const PATIENCE = { attempts: 4, retryBaseMs: 1000, retryMaxMs: 30_000 };
const AUTH_HINT =
  "check the source's affiliate API key (from the network's affiliate account) and that the network allows this server's IP.";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function pageUrl(options: TuneOptions & { pageSize: number }, page: number): URL {
  const url = new URL(`${options.endpoint.replace(/\/+$/, "")}/Apiv3/json`);
  url.searchParams.set("api_key", options.apiKey);
  if (options.networkId) url.searchParams.set("NetworkId", options.networkId);
  url.searchParams.set("Target", "Affiliate_Offer");
  url.searchParams.set("Method", "findAll");
  url.searchParams.append("contain[]", "OfferCategory");
  url.searchParams.append("contain[]", "Country");
  url.searchParams.set("limit", String(options.pageSize));
  url.searchParams.set("page", String(page));
  return url;
}

/** The messages of an envelope's `errors` (a list or a map of { publicMessage | err_msg }). */
function errorMessages(response: Record<string, unknown>): string[] {
  const errors = Array.isArray(response.errors)
    ? response.errors
    : isObject(response.errors)
      ? Object.values(response.errors)
      : [];
  const messages = errors.map((e) =>
    typeof e === "string" ? e : isObject(e) ? (e.publicMessage ?? e.err_msg ?? e.message) : undefined,
  );
  if (typeof response.errorMessage === "string") messages.push(response.errorMessage);
  return sortedUnique(messages.map((m) => cleanText(m, 200)).filter((m): m is string => !!m));
}

/** The key travels in the query string: an echo of it never reaches a message. */
const withoutKey = (text: string, apiKey: string) => (apiKey ? text.replaceAll(apiKey, "[api key]") : text);

const RATE_LIMITED = /rate limit/i;
const REFUSED = /api[ _]?key|token|authenticat|unauthori[sz]ed|not authorized|permission|whitelist/i;

type Answer = { ok: true; records: unknown[]; pageCount: number | undefined } | { ok: false; limited: string };

async function askPage(options: TuneOptions & { pageSize: number }, page: number): Promise<Answer> {
  const what = `page ${page}`;
  const res = await platformGet({
    ...options,
    platform: PLATFORM,
    what,
    url: pageUrl(options, page),
    authHint: AUTH_HINT,
  });
  const body = await jsonOf(res, PLATFORM, what);
  const response = isObject(body) && isObject(body.response) ? body.response : undefined;
  if (!response) throw new PlatformError(`TUNE's ${what} has no "response" envelope`);
  if (Number(response.status) !== 1) {
    const messages = errorMessages(response);
    const said = withoutKey(messages.join("; ") || "no reason given", options.apiKey);
    if (messages.some((m) => RATE_LIMITED.test(m))) return { ok: false, limited: said };
    if (messages.some((m) => REFUSED.test(m)))
      throw new PlatformAuthError(`TUNE refused the API key (${said}): ${AUTH_HINT}`);
    throw new PlatformError(`TUNE answered an error on ${what}: ${said}`);
  }
  const data = response.data;
  // PHP's empty map is an empty list: a network with no offers (or past the last page).
  if (Array.isArray(data) && data.length === 0) return { ok: true, records: [], pageCount: 0 };
  if (!isObject(data) || (!isObject(data.data) && !Array.isArray(data.data)))
    throw new PlatformError(`TUNE's ${what} has no paged "data"`);
  return { ok: true, records: Object.values(data.data), pageCount: numberOf(data.pageCount) };
}

/** One page; a rate limit answered in the body is waited out like a 429 (doubling, capped). */
async function fetchPage(options: TuneOptions & { pageSize: number }, page: number) {
  const o = withDefaults(PATIENCE, options);
  let limited = "";
  for (let attempt = 1; attempt <= o.attempts; attempt++) {
    const answer = await askPage(options, page);
    if (answer.ok) return answer;
    limited = answer.limited;
    if (attempt < o.attempts) await sleep(Math.min(o.retryBaseMs * 2 ** (attempt - 1), o.retryMaxMs));
  }
  throw new PlatformError(
    `TUNE kept answering its rate limit on page ${page} (${limited}); gave up after ${o.attempts} attempt${o.attempts === 1 ? "" : "s"}`,
  );
}

/** The network's default currency on offers that have none (the docs: null means the network's). */
function withCurrency(record: unknown, currency: string | undefined): unknown {
  if (!currency || !isObject(record) || !isObject(record.Offer) || record.Offer.currency) return record;
  return { ...record, Offer: { ...record.Offer, currency } };
}

/** The raw offers of an affiliate account, one page at a time (never the whole catalogue at once). */
export async function* tunePages(options: TuneOptions): AsyncGenerator<unknown[]> {
  const settings = { ...options, pageSize: options.pageSize ?? PAGE_SIZE };
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { records, pageCount } = await fetchPage(settings, page);
    if (records.length) yield records.map((r) => withCurrency(r, options.currency));
    // The last page: the documented pageCount, or a short or empty page without one.
    if (pageCount !== undefined ? page >= pageCount : records.length < settings.pageSize) return;
  }
}

// TUNE payout type → the directory's (and whether it pays an amount, a percent or both).
const PAYOUT_TYPES: Record<string, { type: DirectoryPayoutType; amount: boolean; percent: boolean }> = {
  cpa_flat: { type: "CPA", amount: true, percent: false },
  cpa_percentage: { type: "CPS", amount: false, percent: true },
  cpa_both: { type: "revshare", amount: true, percent: true },
  cpc: { type: "CPC", amount: true, percent: false },
};

const ISO_COUNTRIES = new Set(COUNTRIES.map((c) => c.code));
/** HasOffers' country list names the United Kingdom "UK". */
const COUNTRY_ALIASES: Record<string, string> = { UK: "GB" };

/** The entries of a contained model: a map by id (or code), or PHP's empty list. */
const containedOf = (value: unknown) =>
  (isObject(value) ? Object.values(value) : Array.isArray(value) ? value : []).filter(isObject);

function countriesOf(contained: unknown): string[] {
  return containedOf(contained)
    .map((c) => (typeof c.code === "string" ? c.code.trim().toUpperCase() : ""))
    .map((code) => COUNTRY_ALIASES[code] ?? code)
    .filter((code) => ISO_COUNTRIES.has(code));
}

/** A HasOffers date ("YYYY-MM-DD HH:MM:SS", network time read as UTC), or undefined for none ("0000-00-00"). */
function dateOf(value: unknown): Date | undefined {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}/.test(value) || value.startsWith("0000")) return undefined;
  const date = new Date(`${value.trim().replace(" ", "T")}${value.length > 10 ? "Z" : "T23:59:59Z"}`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * The directory's status: active and paused as they are; pending (not live yet) and
 * expired, or active past its expiration_date, are paused (the network may renew
 * them); deleted offers are skipped, so they go missing and retire like removed ones.
 */
function statusOf(offer: Record<string, unknown>, now: Date): "active" | "paused" | undefined {
  const expires = dateOf(offer.expiration_date);
  switch (offer.status) {
    case "active":
      return expires && expires < now ? "paused" : "active";
    case "paused":
    case "pending":
    case "expired":
      return "paused";
    default:
      return undefined;
  }
}

/** One TUNE record ({ Offer, OfferCategory, Country }) → the directory's offer, or why it is skipped. */
export function mapTuneOffer(raw: unknown, now = new Date()): MapResult {
  if (!isObject(raw) || !isObject(raw.Offer)) return skip("not an Offer record");
  const offer = raw.Offer;
  const id = numberOf(offer.id);
  if (id === undefined || !Number.isInteger(id) || id <= 0) return skip("missing id");
  const name = cleanName(offer.name);
  if (!name) return skip("missing name");

  const status = statusOf(offer, now);
  if (!status) return skip(`status ${cleanText(offer.status, 30) || "missing"}`);

  const currency = currencyOf(offer.currency);
  if (!currency) return skip(`unknown currency ${cleanText(offer.currency, 10) || "(none)"}`);

  const rule = typeof offer.payout_type === "string" ? PAYOUT_TYPES[offer.payout_type] : undefined;
  if (!rule) return skip(`unsupported payout type ${cleanText(offer.payout_type, 20) || "(none)"}`);
  const amount = rule.amount ? amountOf(offer.default_payout) : null;
  const percent = rule.percent ? percentOf(offer.percent_payout) : null;
  if (amount === undefined || percent === undefined) return skip("invalid payout");

  const categories = containedOf(raw.OfferCategory)
    .map((c) => cleanName(c.name))
    .filter((c): c is string => !!c);

  const previewUrl = webAddress(offer.preview_url);
  return {
    ok: true,
    offer: {
      externalId: String(id),
      name,
      description: plainDescription(offer.description),
      previewUrl,
      landingDomain: landingDomainOf(previewUrl),
      payoutType: rule.type,
      payoutAmount: amount,
      payoutPercent: percent,
      currency,
      countries: sortedUnique(countriesOf(raw.Country)),
      categories: sortedUnique(categories),
      status,
    },
  };
}
