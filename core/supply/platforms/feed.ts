// The feed connector (issue #13, docs/supply/feeds.md): networks on any other
// platform publish a CSV or JSON file of their offers in the directory's template
// (public/offer-feed-template.csv), by URL or by upload. Reading the file is
// core/supply/feed-read.ts; this maps one record, already under the template's
// field names (a source's column mapping applied), to the directory's offer.
//
// The template's values: external_id and name (required); description (text);
// payout, an amount, or a percent when it ends with "%" (only for CPS and
// revshare, which pay a share of the sale); payout_type, one of the directory's
// types in any case (CPA, CPL, CPS, CPI, CPC, pay-per-call, revshare), or empty
// with pay_per_call=true for a pay-per-call offer; currency, an ISO code;
// countries, ISO alpha-2 codes separated by "|"; verticals, names separated by
// "|"; preview_url; mobile and pay_per_call, true/false (or empty). A JSON feed
// may also give countries and verticals as lists, and numbers and flags unquoted.
import {
  amountOf,
  cleanName,
  cleanText,
  currencyOf,
  landingDomainOf,
  percentOf,
  plainDescription,
  skip,
  sortedUnique,
  webAddress,
  type DirectoryPayoutType,
  type MapResult,
} from "#core/supply/mapping.ts";
import { isObject } from "./http.ts";

/** The longest external id kept (a network's own offer id). */
const EXTERNAL_ID_MAX = 100;
const VERTICAL_MAX = 100;

/** The directory's payout types by their spelling folded to lower case without spaces, "-" or "_". */
const PAYOUT_TYPES: Record<string, DirectoryPayoutType> = {
  cpa: "CPA",
  cpl: "CPL",
  cps: "CPS",
  cpi: "CPI",
  cpc: "CPC",
  paypercall: "pay-per-call",
  revshare: "revshare",
};

/** Types whose payout may be a share of the sale ("12.5%"). */
const PERCENT_TYPES = new Set<DirectoryPayoutType>(["CPS", "revshare"]);

/** The value as trimmed text ("" when absent); numbers and booleans of a JSON feed as they print. */
function textOf(value: unknown): string {
  if (typeof value === "string") return value.trim();
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return "";
}

/** true, false, or undefined when the value says neither; absent or empty is false. */
function flagOf(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  const text = textOf(value).toLowerCase();
  if (text === "" || text === "false" || text === "0" || text === "no") return false;
  if (text === "true" || text === "1" || text === "yes") return true;
  return undefined;
}

/** "US|ca" or ["US", "ca"] → the parts, trimmed, without empty ones. */
function listOf(value: unknown): string[] {
  const parts = Array.isArray(value) ? value.map(textOf) : textOf(value).split("|");
  return parts.map((p) => p.trim()).filter(Boolean);
}

function externalIdOf(value: unknown): string | undefined {
  const id = cleanText(
    typeof value === "number" && Number.isFinite(value) ? String(value) : value,
    EXTERNAL_ID_MAX + 1,
  );
  return id && id.length <= EXTERNAL_ID_MAX ? id : undefined;
}

/** The payout as an amount or a percent under the type's rule; undefined when it is neither. */
function payoutOf(value: unknown, type: DirectoryPayoutType) {
  const text = textOf(value);
  if (text.endsWith("%")) {
    if (!PERCENT_TYPES.has(type)) return undefined;
    const percent = percentOf(text.slice(0, -1));
    return percent === undefined ? undefined : { amount: null, percent };
  }
  const amount = amountOf(text);
  return amount === undefined ? undefined : { amount, percent: null };
}

/**
 * One feed record → the directory's offer, or why it is skipped. Reasons are
 * counted per run, so they name the field, never the value or the row.
 */
export function mapFeedOffer(raw: unknown): MapResult {
  if (!isObject(raw)) return skip("not an object");
  const externalId = externalIdOf(raw.external_id);
  if (!externalId) return skip("missing external_id");
  const name = cleanName(raw.name);
  if (!name) return skip("missing name");

  const payPerCall = flagOf(raw.pay_per_call);
  const mobile = flagOf(raw.mobile);
  if (payPerCall === undefined || mobile === undefined) return skip("invalid true/false value");
  const typeText = textOf(raw.payout_type);
  const payoutType = typeText
    ? PAYOUT_TYPES[typeText.toLowerCase().replace(/[\s_-]+/g, "")]
    : payPerCall
      ? "pay-per-call"
      : undefined;
  if (!payoutType) return skip(typeText ? "unsupported payout_type" : "missing payout_type");
  const payout = payoutOf(raw.payout, payoutType);
  if (!payout) return skip("invalid payout");
  const currency = currencyOf(textOf(raw.currency));
  if (!currency) return skip("unknown currency");

  const countries = listOf(raw.countries)
    .map((code) => code.toUpperCase())
    .filter((code) => /^[A-Z]{2}$/.test(code));
  const categories = listOf(raw.verticals)
    .map((v) => cleanName(v))
    .filter((v): v is string => v !== undefined && v.length <= VERTICAL_MAX);
  const previewUrl = webAddress(textOf(raw.preview_url));
  return {
    ok: true,
    offer: {
      externalId,
      name,
      description: plainDescription(textOf(raw.description)),
      previewUrl,
      landingDomain: landingDomainOf(previewUrl),
      payoutType,
      payoutAmount: payout.amount,
      payoutPercent: payout.percent,
      currency,
      countries: sortedUnique(countries),
      categories: sortedUnique(categories),
      // A feed lists the offers that run: one it leaves out is retired by the sync.
      status: "active",
      mobile,
      payPerCall: payPerCall || payoutType === "pay-per-call",
    },
  };
}
