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

/** The platform refused the credentials: the operator must fix the source. */
export class PlatformAuthError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PlatformAuthError";
  }
}

/** The platform kept failing (or answered what is not its documented shape). */
export class PlatformError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PlatformError";
  }
}

export type EverflowOptions = {
  endpoint: string;
  apiKey: string;
  pageSize?: number;
  fetch?: typeof fetch;
  /** Longest wait for one answer. */
  timeoutMs?: number;
  /** Attempts per page (the first included) on 429, 5xx and network faults. */
  attempts?: number;
  /** First backoff; it doubles each attempt. */
  retryBaseMs?: number;
  /** Longest wait between attempts, whatever Retry-After asks. */
  retryMaxMs?: number;
};

const DEFAULTS = { pageSize: 500, timeoutMs: 30_000, attempts: 4, retryBaseMs: 1000, retryMaxMs: 30_000 };
const MAX_PAGES = 100_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Retry-After in milliseconds (seconds or an HTTP date), or undefined. */
function retryAfterMs(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** The address of one page: the endpoint's own path (if any) then /v1/affiliates/alloffers. */
function pageUrl(endpoint: string, page: number, pageSize: number): URL {
  const base = endpoint.replace(/\/+$/, "");
  const url = new URL(`${base}/v1/affiliates/alloffers`);
  url.searchParams.set("page", String(page));
  url.searchParams.set("page_size", String(pageSize));
  return url;
}

async function fetchPage(options: Required<Omit<EverflowOptions, "fetch">> & { fetch: typeof fetch }, page: number) {
  const url = pageUrl(options.endpoint, page, options.pageSize);
  let last = "";
  for (let attempt = 1; attempt <= options.attempts; attempt++) {
    let wait = Math.min(options.retryBaseMs * 2 ** (attempt - 1), options.retryMaxMs);
    try {
      const res = await options.fetch(url, {
        headers: { "X-Eflow-API-Key": options.apiKey, Accept: "application/json" },
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      if (res.status === 401 || res.status === 403) {
        await res.body?.cancel();
        throw new PlatformAuthError(
          `Everflow refused the API key (${res.status}): check the source's affiliate API key (Everflow → My Account → API).`,
        );
      }
      if (res.status === 429 || res.status >= 500) {
        await res.body?.cancel();
        last = `Everflow answered ${res.status} on page ${page}`;
        if (res.status === 429)
          wait = Math.min(retryAfterMs(res.headers.get("retry-after")) ?? wait, options.retryMaxMs);
      } else if (!res.ok) {
        await res.body?.cancel();
        throw new PlatformError(`Everflow answered ${res.status} on page ${page} of ${url.origin}${url.pathname}`);
      } else {
        let body: unknown;
        try {
          body = await res.json();
        } catch {
          throw new PlatformError(`Everflow answered page ${page} with something that is not JSON`);
        }
        const offers = (body as { offers?: unknown })?.offers;
        if (!Array.isArray(offers)) throw new PlatformError(`Everflow's page ${page} has no "offers" list`);
        const total = numberOf((body as { paging?: { total_count?: unknown } }).paging?.total_count);
        return { offers: offers as unknown[], total };
      }
    } catch (err) {
      if (err instanceof PlatformAuthError || err instanceof PlatformError) throw err;
      const reason = err instanceof Error && err.name === "TimeoutError" ? "timed out" : (err as Error).message;
      last = `Everflow could not be reached for page ${page} (${reason})`;
    }
    if (attempt < options.attempts) await sleep(wait);
  }
  throw new PlatformError(`${last}; gave up after ${options.attempts} attempt${options.attempts === 1 ? "" : "s"}`);
}

/** The raw offers of an affiliate account, one page at a time (never the whole catalogue at once). */
export async function* everflowPages(options: EverflowOptions): AsyncGenerator<unknown[]> {
  // Options given as undefined keep their defaults.
  const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as EverflowOptions;
  const settings = { ...DEFAULTS, fetch: globalThis.fetch, ...given };
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

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

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
