// What every platform's connector maps a raw offer into before the sync writes
// it (issue #13), and the rules all platforms share: storable text, the payout
// range the offers table holds, currencies with a reference rate, the landing
// domain, and the hash that tells an unchanged record from a changed one.
import crypto from "node:crypto";
import { isStorableText } from "#contracts/text.ts";
import { USD_RATES } from "#core/reference/currencies.ts";

export type DirectoryPayoutType = "CPA" | "CPL" | "CPS" | "CPI" | "CPC" | "pay-per-call" | "revshare";

/** One offer as the directory keeps it, from one platform record (categories still as the platform names them). */
export type MappedOffer = {
  externalId: string;
  name: string;
  description: string;
  previewUrl: string | null;
  landingDomain: string | null;
  payoutType: DirectoryPayoutType;
  payoutAmount: number | null;
  payoutPercent: number | null;
  currency: string;
  /** ISO alpha-2, upper case, sorted, without repeats. */
  countries: string[];
  /** The platform's category names, sorted, without repeats. */
  categories: string[];
  status: "active" | "paused";
  /** Where the platform says so; left out: false. */
  mobile?: boolean;
  /** Left out: whether the payout type is pay-per-call. */
  payPerCall?: boolean;
  /** Traffic the offer allows and forbids, as the platform names it, sorted; left out: none. */
  allowedTraffic?: string[];
  restrictedTraffic?: string[];
};

/** The flags and traffic lists as the offers table keeps them. */
export function offerExtras(offer: Omit<MappedOffer, "status">) {
  return {
    mobile: offer.mobile ?? false,
    payPerCall: offer.payPerCall ?? offer.payoutType === "pay-per-call",
    allowedTraffic: offer.allowedTraffic ?? [],
    restrictedTraffic: offer.restrictedTraffic ?? [],
  };
}

export type MapResult = { ok: true; offer: MappedOffer } | { ok: false; reason: string };

export const skip = (reason: string): MapResult => ({ ok: false, reason });

const NAME_MAX = 300;
const DESCRIPTION_MAX = 5000;
const URL_MAX = 2000;
/** offers.payout_amount is numeric(12,2); payout_percent numeric(5,2). */
const AMOUNT_MAX = 9_999_999_999.99;
const PERCENT_MAX = 999.99;

/** Text the database can store, trimmed, or undefined when it is not text or not storable. */
export function cleanText(value: unknown, max: number): string | undefined {
  if (typeof value !== "string") return undefined;
  if (!isStorableText(value)) return undefined;
  const text = value.replace(/\s+/g, " ").trim();
  return text.length > max ? text.slice(0, max).trimEnd() : text;
}

export const cleanName = (value: unknown) => {
  const name = cleanText(value, NAME_MAX);
  return name ? name : undefined;
};

/** Plain text from a platform's HTML description (tags dropped, the common entities decoded). */
export function plainDescription(value: unknown): string {
  if (typeof value !== "string" || !isStorableText(value)) return "";
  const text = value
    .replace(/<(br|\/p|\/div|\/li)\s*\/?>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
  return cleanText(text, DESCRIPTION_MAX) ?? "";
}

/** An http(s) address, or null. */
export function webAddress(value: unknown): string | null {
  const text = cleanText(value, URL_MAX);
  if (!text) return null;
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/** The landing page's host, lower case, without a leading "www.". */
export function landingDomainOf(url: string | null): string | null {
  if (!url) return null;
  const host = new URL(url).hostname.toLowerCase().replace(/^www\./, "");
  return host || null;
}

/** A number from a number or a numeric string; undefined otherwise. */
export function numberOf(value: unknown): number | undefined {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** An amount rounded to cents within what offers.payout_amount holds; undefined when out of range. */
export function amountOf(value: unknown): number | undefined {
  const n = numberOf(value);
  if (n === undefined || n < 0 || n > AMOUNT_MAX) return undefined;
  return Math.round(n * 100) / 100;
}

export function percentOf(value: unknown): number | undefined {
  const n = numberOf(value);
  if (n === undefined || n < 0 || n > PERCENT_MAX) return undefined;
  return Math.round(n * 100) / 100;
}

/** An ISO currency code the directory can rank (it has a reference rate), upper case; undefined otherwise. */
export function currencyOf(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const code = value.trim().toUpperCase();
  return /^[A-Z]{3}$/.test(code) && USD_RATES[code] !== undefined ? code : undefined;
}

export const sortedUnique = (values: Iterable<string>) => [...new Set(values)].sort();

/**
 * The hash of a record as the directory stores it (categories resolved to
 * verticals): equal hashes mean nothing to write.
 */
export function sourceHash(offer: MappedOffer, categoryIds: readonly number[]): string {
  const { categories: _names, ...fields } = offer;
  const canonical = JSON.stringify([
    fields.externalId,
    fields.name,
    fields.description,
    fields.previewUrl,
    fields.landingDomain,
    fields.payoutType,
    fields.payoutAmount,
    fields.payoutPercent,
    fields.currency,
    fields.countries,
    [...categoryIds].sort((a, b) => a - b),
    fields.status,
    // Appended only when a platform gives them, so hashes made before they existed still match.
    ...(fields.mobile ||
    fields.payPerCall !== undefined ||
    fields.allowedTraffic?.length ||
    fields.restrictedTraffic?.length
      ? [offerExtras(offer)]
      : []),
  ]);
  return crypto.createHash("sha256").update(canonical).digest("base64url");
}
