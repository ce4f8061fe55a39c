// Affise's affiliate API (api.affise.com/docs3.2, Affiliate → Offers → "Offer list"):
// `GET {tenant API host}/3.0/partner/offers` with the `API-Key` header (the key from
// the affiliate panel, Settings → Security), paged with `page` (1-based) and `limit`
// (default 100, at most 500); the answer is `{ status: 1, offers: [...], pagination:
// { per_page, total_count, page, next_page } }`. An offer carries `id` (the integer id
// shown in the panel and in click links; `offer_id` is an internal hex string),
// `title`, `preview_url`, `description_lang` ({ en, ru, ... }, HTML), `cr`, `epc`,
// `sources` (allowed traffic: [{ id, title, allowed }]), `full_categories` ([{ id,
// title }]), `targeting` ([{ country: { allow, deny } }]), `stop_at`, `is_cpi`, `link`
// and `links` (the affiliate's tracking links: never stored) and `payments` ([{
// countries, country_exclude, goal, revenue (the affiliate's payout), currency (ECB
// code, often lower case), type }]). Payment types: fixed, percent, mixed, cpc, cpm,
// first_cpa, first_cps, baseline_onetime, baseline_accumulating. The partner list
// holds only the offers the affiliate may run, so it documents no offer status; the
// admin offer's `status` (active | stopped | suspended) is read when present.
// Errors are `{ status: 2, message }`: 401 "Token is necessary" for a bad key, 403
// "Auth Denied", 500; the same envelope also comes with a 200. No rate-limit answer is
// documented (help-center: limits per key, by plan); a 429 is retried by platformGet,
// and a 200 whose error message speaks of a limit is retried the same way.
import { USD_RATES } from "#core/reference/currencies.ts";
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
import { isObject, jsonOf, platformGet, PlatformAuthError, PlatformError, type HttpPatience } from "./http.ts";

export type AffiseOptions = HttpPatience & {
  /** The network's own API host, e.g. https://api-network.affise.com. */
  endpoint: string;
  apiKey: string;
  /** Offers per page (`limit`), 1 to 500. */
  pageSize?: number;
  fetch?: typeof fetch;
};

export const AFFISE_PAGE_SIZE_MAX = 500;
const PAGE_SIZE = AFFISE_PAGE_SIZE_MAX;
const MAX_PAGES = 100_000;
const AUTH_HINT = "check the source's affiliate API key (Affise affiliate panel → Settings → Security).";

/** An error message of Affise's `{ status: 2, message }` envelope, or undefined for any other body. */
function errorMessageOf(body: unknown): string | undefined {
  if (!isObject(body) || body.status !== 2) return undefined;
  return cleanText(body.message ?? body.error, 200) || "(no message)";
}

const speaksOfRateLimit = (message: string) => /rate.?limit|too many requests|limit exceeded/i.test(message);
const speaksOfCredentials = (message: string) => /token|api.?key|auth/i.test(message);

/**
 * fetch as platformGet sees it: a 200 carrying Affise's rate-limit error becomes a
 * 429, so it is retried with the same backoff (and Retry-After) as a real one.
 */
function withInBodyRateLimit(base: typeof fetch): typeof fetch {
  return async (input, init) => {
    const res = await base(input, init);
    if (!res.ok) return res;
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const message = errorMessageOf(body);
    const status = message && speaksOfRateLimit(message) ? 429 : res.status;
    return new Response(text, { status, headers: res.headers });
  };
}

function pageUrl(endpoint: string, page: number, pageSize: number): URL {
  const url = new URL(`${endpoint.replace(/\/+$/, "")}/3.0/partner/offers`);
  url.searchParams.set("page", String(page));
  url.searchParams.set("limit", String(pageSize));
  return url;
}

async function fetchPage(options: AffiseOptions & { pageSize: number }, page: number) {
  const what = `page ${page}`;
  const res = await platformGet({
    ...options,
    fetch: withInBodyRateLimit(options.fetch ?? globalThis.fetch),
    platform: "Affise",
    what,
    url: pageUrl(options.endpoint, page, options.pageSize),
    headers: { "API-Key": options.apiKey },
    authHint: AUTH_HINT,
  });
  const body = await jsonOf(res, "Affise", what);
  const message = errorMessageOf(body);
  if (message && speaksOfCredentials(message))
    throw new PlatformAuthError(`Affise refused the API key ("${message}"): ${AUTH_HINT}`);
  if (message) throw new PlatformError(`Affise answered an error on ${what}: "${message}"`);
  const offers = isObject(body) ? body.offers : undefined;
  if (!Array.isArray(offers)) throw new PlatformError(`Affise's page ${page} has no "offers" list`);
  const pagination = isObject(body) && isObject(body.pagination) ? body.pagination : undefined;
  return { offers: offers as unknown[], pagination };
}

/** The raw offers of an affiliate account, one page at a time (never the whole catalogue at once). */
export async function* affisePages(options: AffiseOptions): AsyncGenerator<unknown[]> {
  const settings = { ...options, pageSize: options.pageSize ?? PAGE_SIZE };
  let page = 1;
  for (let requests = 0; requests < MAX_PAGES; requests++) {
    const { offers, pagination } = await fetchPage(settings, page);
    if (!offers.length) return;
    yield offers;
    // The documented `next_page` leads; without pagination at all, a short page is the last.
    if (pagination) {
      const next = numberOf(pagination.next_page);
      if (next === undefined || !Number.isInteger(next) || next <= page) return;
      page = next;
    } else {
      if (offers.length < settings.pageSize) return;
      page++;
    }
  }
}

type PaymentRule = { type: DirectoryPayoutType; pays: "amount" | "percent" };

/** Affise payment type → the directory's; `fixed` and `first_cpa` are installs (CPI) on an `is_cpi` offer. */
function ruleOf(type: unknown, isCpi: boolean): PaymentRule | undefined {
  switch (type) {
    case "fixed":
    case "first_cpa":
      return { type: isCpi ? "CPI" : "CPA", pays: "amount" };
    case "percent":
    case "first_cps":
      return { type: "CPS", pays: "percent" };
    case "cpc":
      return { type: "CPC", pays: "amount" };
    // mixed (its percent part is not in the documented record), cpm and the baseline
    // types have no place in the directory.
    default:
      return undefined;
  }
}

type Payment = { rule: PaymentRule; currency: string; value: number; countries: string[] };

const countryCodes = (values: unknown) =>
  Array.isArray(values)
    ? values.map((c) => (typeof c === "string" ? c.trim().toUpperCase() : "")).filter((code) => /^[A-Z]{2}$/.test(code))
    : [];

/** The countries a payment pays in (none when it names the countries it excludes). */
const paymentCountries = (p: Record<string, unknown>) =>
  p.country_exclude === true || p.country_exclude === 1 || p.country_exclude === "1" ? [] : countryCodes(p.countries);

/**
 * The payment the directory shows: the highest paying in USD among the payments
 * paying an amount, else the highest percent; the offer's countries are the union
 * of the countries of every payment the directory could show and of the targeting
 * groups' allow lists (excluded and denied countries are not the offer's countries).
 */
function headlinePayment(payments: Record<string, unknown>[], isCpi: boolean): Payment | string {
  if (!payments.length) return "no payout";
  const shown = payments.flatMap((p) => {
    const rule = ruleOf(p.type, isCpi);
    return rule ? [{ p, rule }] : [];
  });
  if (!shown.length) return `unsupported payout type ${cleanText(payments[0].type, 20) || "(none)"}`;
  const priced = shown.flatMap(({ p, rule }) => {
    const currency = currencyOf(p.currency);
    return currency ? [{ p, rule, currency }] : [];
  });
  if (!priced.length) return `unknown currency ${cleanText(shown[0].p.currency, 10) || "(none)"}`;
  const valid = priced.flatMap(({ p, rule, currency }) => {
    const value = rule.pays === "amount" ? amountOf(p.revenue) : percentOf(p.revenue);
    return value === undefined ? [] : [{ rule, currency, value, countries: paymentCountries(p) }];
  });
  if (!valid.length) return "invalid payout";
  const amounts = valid.filter((p) => p.rule.pays === "amount");
  const rank = (p: Payment) => (p.rule.pays === "amount" ? p.value * USD_RATES[p.currency] : p.value);
  const pool = amounts.length ? amounts : valid;
  const best = pool.reduce((a, b) => (rank(b) > rank(a) ? b : a));
  return { ...best, countries: valid.flatMap((p) => p.countries) };
}

/**
 * A stop date in the past: Affise stops the offer then. A date without a zone is
 * read as UTC (the network's own zone is not in the record; hours do not matter here).
 */
function stopped(stopAt: unknown, now: number): boolean {
  const text = typeof stopAt === "string" ? stopAt.trim().replace(" ", "T") : "";
  if (!text) return false;
  const at = Date.parse(/T\d\d:\d\d(:\d\d)?$/.test(text) ? `${text}Z` : text);
  return Number.isFinite(at) && at <= now;
}

/** English first, else the first description given. */
function descriptionOf(value: unknown): string {
  if (!isObject(value)) return "";
  const texts = [value.en, ...Object.values(value)].map(plainDescription);
  return texts.find(Boolean) ?? "";
}

/** A traffic type's name longer than this is not a name. */
const TRAFFIC_NAME_MAX = 100;

/** One Affise partner offer → the directory's offer, or why it is skipped. */
export function mapAffiseOffer(raw: unknown, now = Date.now()): MapResult {
  if (!isObject(raw)) return skip("not an object");
  const id = numberOf(raw.id);
  if (id === undefined || !Number.isInteger(id) || id <= 0) return skip("missing id");
  const name = cleanName(raw.title);
  if (!name) return skip("missing title");

  // The partner list documents no status (it lists what the affiliate may run); an admin
  // record's suspended is a pause, stopped (or any other) is skipped, so the offer retires.
  const status =
    raw.status === undefined || raw.status === "active" ? "active" : raw.status === "suspended" ? "paused" : undefined;
  if (!status) return skip(`status ${cleanText(raw.status, 30) || "(none)"}`);
  if (stopped(raw.stop_at, now)) return skip("stopped (stop_at passed)");

  const payments = Array.isArray(raw.payments) ? raw.payments.filter(isObject) : [];
  const payment = headlinePayment(payments, raw.is_cpi === true);
  if (typeof payment === "string") return skip(payment);

  const targeting = Array.isArray(raw.targeting) ? raw.targeting.filter(isObject) : [];
  const allowed = targeting.flatMap((t) => (isObject(t.country) ? countryCodes(t.country.allow) : []));
  const categories = Array.isArray(raw.full_categories)
    ? raw.full_categories.filter(isObject).map((c) => cleanName(c.title))
    : [];

  // Allowed traffic: `sources` [{ title, allowed }] (allowed as a boolean or 1/0).
  const traffic = Array.isArray(raw.sources) ? raw.sources.filter(isObject) : [];
  const trafficNamed = (allowed: boolean) =>
    sortedUnique(
      traffic
        .filter((t) => (t.allowed === true || t.allowed === 1) === allowed)
        .map((t) => cleanName(t.title))
        .filter((t): t is string => t !== undefined && t.length <= TRAFFIC_NAME_MAX),
    );

  const previewUrl = webAddress(raw.preview_url);
  return {
    ok: true,
    offer: {
      externalId: String(id),
      name,
      description: descriptionOf(raw.description_lang),
      previewUrl,
      landingDomain: landingDomainOf(previewUrl),
      payoutType: payment.rule.type,
      payoutAmount: payment.rule.pays === "amount" ? payment.value : null,
      payoutPercent: payment.rule.pays === "percent" ? payment.value : null,
      currency: payment.currency,
      countries: sortedUnique([...payment.countries, ...allowed]),
      categories: sortedUnique(categories.filter((c): c is string => Boolean(c))),
      status,
      allowedTraffic: trafficNamed(true),
      restrictedTraffic: trafficNamed(false),
    },
  };
}
