// CAKE's affiliate API (support.getcake.com; CAKE is an ASP.NET web-service API
// answering XML): `GET {endpoint}/affiliates/api/4/offers.asmx/OfferFeed` with
// `api_key` and `affiliate_id` in the query string, the filters `campaign_name`,
// `media_type_category_id`, `vertical_category_id`, `vertical_id`,
// `offer_status_id` and `tag_id` (0 or blank = all), and paging by
// `start_at_row` (1-based) and `row_limit` (0 = every row: never sent). Every
// answer is one `<…_response>` element with `<success>`; a refusal is
// `<success>false</success>` with a `<message>` (HTTP 200), and CAKE's rate limit
// answers the message "Restricted". A success carries `<row_count>` and the list:
// `<offers><offer>…</offer></offers>`. An offer has `offer_id`, `offer_name`,
// `vertical_name`, `offer_status`, `price_format` (CPA, CPC, CPM, Fixed,
// RevShare: a percent of what the network receives), `payout` as the portal
// shows it ("$12.50", "15%", "€3.00"), `description`, `preview_link`,
// `tracking_link` (per affiliate: never stored) and `allowed_countries`
// (`<country><country_code>`). Offer statuses: Active / Public / Private /
// Apply To Run (affiliates can run it), Paused / Inactive (no traffic), Pending
// (not live yet) and Expired (end date passed).
// Confirmed from CAKE's own pages and client libraries: the path, the query
// parameters, 1-based start_at_row, the response envelope, "Restricted", the
// price formats and statuses. Taken from issue #13 as not confirmed: the
// element names inside <offer> and the wording of a bad-key message, and
// whether row_count counts the page or the whole feed (so paging ends on a
// short page, never on row_count).
import { XMLParser } from "fast-xml-parser";
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
import { isObject, platformGet, PlatformAuthError, PlatformError, withDefaults, type HttpPatience } from "./http.ts";

export type CakeOptions = HttpPatience & {
  endpoint: string;
  apiKey: string;
  /** The affiliate's id in the network's CAKE (the source's `settings.affiliate_id`). */
  affiliateId: string | undefined;
  pageSize?: number;
  fetch?: typeof fetch;
};

const PAGE_SIZE = 500;
const MAX_PAGES = 100_000;
/** A page far larger than this is not an offer feed; reading it would only fill memory. */
const BODY_MAX_BYTES = 32 * 1024 * 1024;
const FEED_PATH = "/affiliates/api/4/offers.asmx/OfferFeed";
const AUTH_HINT =
  "check the source's API key and its affiliate_id setting (the affiliate's API key and ID in the network's CAKE portal).";

export const CAKE_NEEDS_AFFILIATE_ID =
  "settings.affiliate_id must be the affiliate's CAKE ID (a whole number): CAKE serves its offer feed per affiliate";

/** The source's affiliate id as CAKE takes it (a positive whole number), or undefined. */
export function cakeAffiliateId(settings: Record<string, unknown>): string | undefined {
  const raw = settings.affiliate_id;
  const text = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw.trim() : "";
  return /^[1-9][0-9]{0,9}$/.test(text) ? text : undefined;
}

/** The address of one page: the CAKE domain (or the full OfferFeed address an operator pasted) with the query. */
function pageUrl(options: CakeOptions & { affiliateId: string }, startAtRow: number, rowLimit: number): URL {
  const base = options.endpoint.replace(/\/+$/, "");
  const url = new URL(/\/offers\.asmx\/OfferFeed$/i.test(base) ? base : `${base}${FEED_PATH}`);
  const query: Record<string, string | number> = {
    api_key: options.apiKey,
    affiliate_id: options.affiliateId,
    campaign_name: "",
    media_type_category_id: 0,
    vertical_category_id: 0,
    vertical_id: 0,
    offer_status_id: 0,
    tag_id: 0,
    start_at_row: startAtRow,
    row_limit: rowLimit,
  };
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, String(value));
  return url;
}

// No DOCTYPE is accepted at all (see answerOf); the entity limits and the nesting
// bound are a second fence. Values stay text: ids like "007" and payouts are read here.
const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  htmlEntities: true,
  processEntities: { enabled: true, maxEntityCount: 1, maxEntitySize: 100, maxExpandedLength: 10_000 },
  maxNestedTags: 20,
  isArray: (_name, jpath) => /\.offers\.offer$|\.allowed_countries\.country$/.test(String(jpath)),
});

/** The body as text, refusing one larger than BODY_MAX_BYTES without reading the rest. */
async function boundedText(res: Response, what: string): Promise<string> {
  if (!res.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += chunk.byteLength;
    // Leaving the loop by a throw cancels the rest of the body.
    if (size > BODY_MAX_BYTES)
      throw new PlatformError(
        `CAKE's ${what} is larger than ${BODY_MAX_BYTES / 1024 / 1024} MB; lower the source's page_size`,
      );
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

type Answer = { offers: unknown[] } | { restricted: true };

/** One OfferFeed answer: its offers, CAKE's rate limit, or a typed error for anything else. */
function answerOf(xml: string, what: string): Answer {
  if (/<!DOCTYPE/i.test(xml))
    throw new PlatformError(`CAKE answered ${what} with a DOCTYPE, which its API never sends`);
  let doc: unknown;
  try {
    doc = parser.parse(xml);
  } catch (err) {
    throw new PlatformError(`CAKE answered ${what} with XML that cannot be read (${(err as Error).message})`);
  }
  const rootName = isObject(doc) ? Object.keys(doc).find((name) => name.endsWith("_response")) : undefined;
  const root = rootName && isObject(doc) ? doc[rootName] : undefined;
  if (!isObject(root) || typeof root.success !== "string")
    throw new PlatformError(
      `CAKE answered ${what} with something that is not an API answer (no <…_response><success>)`,
    );
  if (root.success.trim().toLowerCase() !== "true") {
    const message = cleanText(root.message, 200) || "no message";
    if (/^restricted$/i.test(message)) return { restricted: true };
    if (/api.?key|affiliate|authori[sz]|permission|access/i.test(message))
      throw new PlatformAuthError(`CAKE refused the API key or affiliate_id ("${message}"): ${AUTH_HINT}`);
    throw new PlatformError(`CAKE refused ${what}: ${message}`);
  }
  // An empty list is `<offers/>` (read as ""), or left out when row_count is 0.
  if (root.offers === "" || (root.offers === undefined && numberOf(root.row_count) === 0)) return { offers: [] };
  const offers = isObject(root.offers) ? root.offers.offer : undefined;
  if (!Array.isArray(offers)) throw new PlatformError(`CAKE's ${what} has no <offers> list`);
  return { offers };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One page's raw offers; an in-body "Restricted" is waited out like a 429 (doubling, capped), a bounded number of times. */
async function fetchPage(options: CakeOptions & { affiliateId: string; pageSize: number }, page: number) {
  const what = `page ${page}`;
  const patience = withDefaults({ attempts: 4, retryBaseMs: 1000, retryMaxMs: 30_000 }, options);
  const url = pageUrl(options, (page - 1) * options.pageSize + 1, options.pageSize);
  for (let attempt = 1; ; attempt++) {
    const res = await platformGet({
      ...options,
      platform: "CAKE",
      what,
      url,
      headers: { Accept: "application/xml, text/xml" },
      credential: "the API key or affiliate_id",
      authHint: AUTH_HINT,
    });
    const answer = answerOf(await boundedText(res, what), what);
    if ("offers" in answer) return answer.offers;
    if (attempt >= patience.attempts)
      throw new PlatformError(
        `CAKE kept answering "Restricted" (its rate limit) on ${what}; gave up after ${attempt} attempt${attempt === 1 ? "" : "s"}`,
      );
    await sleep(Math.min(patience.retryBaseMs * 2 ** (attempt - 1), patience.retryMaxMs));
  }
}

/** The raw offers of an affiliate's CAKE feed, one page at a time (never the whole catalogue at once). */
export async function* cakePages(options: CakeOptions): AsyncGenerator<unknown[]> {
  const { affiliateId } = options;
  if (!affiliateId) throw new PlatformAuthError(`The source has no affiliate_id setting: ${CAKE_NEEDS_AFFILIATE_ID}`);
  const settings = { ...options, affiliateId, pageSize: options.pageSize ?? PAGE_SIZE };
  for (let page = 1; page <= MAX_PAGES; page++) {
    const offers = await fetchPage(settings, page);
    if (offers.length) yield offers;
    if (offers.length < settings.pageSize) return;
  }
}

// ---------------------------------------------------------------- one offer

/** The text of a value CAKE gives either as text or as an element with a name (`<offer_status><status_name>`). */
function textOf(value: unknown, nameField: string): string {
  const raw = isObject(value) ? value[nameField] : value;
  return cleanText(raw, 60) ?? "";
}

const STATUSES: Record<string, "active" | "paused"> = {
  active: "active",
  public: "active",
  private: "active", // listed for an affiliate only when it has a campaign on it
  "apply to run": "active",
  paused: "paused",
  inactive: "paused",
  // pending (not live yet) and expired (its end date passed) are skipped: the
  // directory lists neither, and an expired offer retires after retire_after_runs.
};

const CURRENCY_SIGNS: Record<string, string> = {
  $: "USD",
  US$: "USD",
  "€": "EUR",
  "£": "GBP",
  C$: "CAD",
  CA$: "CAD",
  A$: "AUD",
  AU$: "AUD",
  R$: "BRL",
  "₹": "INR",
};

/** "1,250.00", "12.5", "3,50" (a decimal comma), "1.250,00" → the number; undefined when ambiguous or malformed. */
function decimalOf(digits: string): number | undefined {
  if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(digits)) return Number(digits.replace(/,/g, ""));
  if (/^\d+(\.\d+)?$/.test(digits)) return Number(digits);
  if (/^\d{1,3}(\.\d{3})+(,\d+)?$/.test(digits)) return Number(digits.replace(/\./g, "").replace(",", "."));
  if (/^\d+,\d{1,2}$/.test(digits)) return Number(digits.replace(",", "."));
  return undefined;
}

export type CakePayout =
  | { kind: "percent"; percent: number }
  | { kind: "amount"; amount: number; currency: string | undefined; currencyText: string };

/** CAKE's formatted payout ("$12.50", "€3.00", "12.50 USD", "15%") read; undefined when it cannot be. */
export function cakePayoutOf(value: unknown): CakePayout | undefined {
  const text = typeof value === "number" ? String(value) : (cleanText(value, 60) ?? "");
  const match = /^([^\d\s]*)\s*(\d[\d.,]*)\s*([^\d\s]*)$/u.exec(text);
  if (!match) return undefined;
  const [, before, digits, after] = match;
  const n = decimalOf(digits);
  if (n === undefined) return undefined;
  if (after === "%" && !before) {
    const percent = percentOf(n);
    return percent === undefined ? undefined : { kind: "percent", percent };
  }
  if (before && after) return undefined; // "$12 USD" or worse: not one way of writing money
  const sign = before || after;
  const amount = amountOf(n);
  if (amount === undefined || sign.includes("-") || sign.includes("%")) return undefined;
  const currency = /^[A-Za-z]{3}$/.test(sign) ? currencyOf(sign) : currencyOf(CURRENCY_SIGNS[sign.toUpperCase()]);
  return { kind: "amount", amount, currency, currencyText: sign };
}

// CAKE price format → the directory's payout type, and whether it pays an amount or a percent.
const PRICE_FORMATS: Record<string, { type: DirectoryPayoutType; kind: CakePayout["kind"] }> = {
  cpa: { type: "CPA", kind: "amount" },
  cpc: { type: "CPC", kind: "amount" },
  revshare: { type: "revshare", kind: "percent" },
};

/** The countries an offer is open to (its allowed list; blocked countries are no "countries"), as ISO alpha-2. */
function allowedCountries(value: unknown): string[] {
  const entries = isObject(value) && Array.isArray(value.country) ? value.country : [];
  const codes = typeof value === "string" ? value.split(/[\s,;]+/) : entries.map((c) => textOf(c, "country_code"));
  return codes.map((code) => code.trim().toUpperCase()).filter((code) => /^[A-Z]{2}$/.test(code));
}

/** One CAKE offer → the directory's offer, or why it is skipped. */
export function mapCakeOffer(raw: unknown): MapResult {
  if (!isObject(raw)) return skip("not an object");
  const idText = typeof raw.offer_id === "number" ? String(raw.offer_id) : (cleanText(raw.offer_id, 20) ?? "");
  const id = /^[0-9]{1,15}$/.test(idText) ? Number(idText) : 0;
  if (id <= 0) return skip("missing offer_id");
  const name = cleanName(raw.offer_name);
  if (!name) return skip("missing offer_name");

  const statusText = textOf(raw.offer_status, "status_name");
  const status = STATUSES[statusText.toLowerCase()];
  if (!status) return skip(`offer_status ${statusText || "missing"}`);

  const payout = cakePayoutOf(raw.payout);
  if (!payout) return skip(`unreadable payout ${cleanText(raw.payout, 30) || "(none)"}`);
  // Without a price format the payout says which it is: an amount per action, or a share.
  const formatText = textOf(raw.price_format, "price_format_name");
  const format = formatText
    ? formatText.toLowerCase().replace(/[\s_-]/g, "")
    : payout.kind === "amount"
      ? "cpa"
      : "revshare";
  const rule = PRICE_FORMATS[format];
  if (!rule) return skip(`unsupported payout type ${formatText}`);
  if (rule.kind !== payout.kind) return skip("invalid payout");
  if (payout.kind === "amount" && !payout.currency) return skip(`unknown currency ${payout.currencyText || "(none)"}`);

  const category = cleanName(raw.vertical_name);
  const previewUrl = webAddress(raw.preview_link);
  return {
    ok: true,
    offer: {
      externalId: String(id),
      name,
      description: plainDescription(raw.description),
      previewUrl,
      landingDomain: landingDomainOf(previewUrl),
      payoutType: rule.type,
      payoutAmount: payout.kind === "amount" ? payout.amount : null,
      payoutPercent: payout.kind === "percent" ? payout.percent : null,
      // A share has no currency of its own; the directory keeps one per offer.
      currency: payout.kind === "amount" ? payout.currency! : "USD",
      countries: sortedUnique(allowedCountries(raw.allowed_countries)),
      categories: category ? [category] : [],
      status,
    },
  };
}
