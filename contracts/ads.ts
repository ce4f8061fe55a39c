// Ad slots and the house ads that fill them (docs/product.md §9), the console's
// house-ad forms and lists (/api/admin/ads, docs/api.md), and the public click
// and impression addresses.
import { z } from "zod";
import { adminPage, adminSort, type AdminList } from "./admin.ts";
import { integerField, messages, requiredText } from "./validation.ts";

/**
 * A slot's size: header and footer 728x90, top 270x70, sidebar 250x250, small
 * sidebar 125x125, search bar 370x165. A slot with no ad shows an "Advertise here"
 * tile of the same size.
 */
export const AD_SIZES = ["728x90", "270x70", "250x250", "125x125", "370x165"] as const;
export type AdSize = (typeof AD_SIZES)[number];
/** The one size whose ads answer to search keywords (the slot beside the search bar). */
export const KEYWORD_AD_SIZE = "370x165";

export type HouseAd = {
  id: number;
  size: AdSize;
  headline: string;
  body: string;
  imageUrl: string | null;
  targetUrl: string;
};

export type AdsBySize = Record<AdSize, HouseAd[]>;

/** Where a slot links: the click is counted, then the visitor goes to the ad's stored target. */
export const adClickPath = (id: number) => `/ads/${id}/click`;
/** Where a page reports the ads it showed (one small request per page view). */
export const AD_IMPRESSIONS_PATH = "/ads/impressions";
/** Most ads one page shows (2 + 3 + 1 + 6 + 1 slots), so most ids one report may name. */
export const MAX_ADS_PER_PAGE = 13;

export const adImpressions = z.object({
  ads: z
    .array(integerField("ads", 1).refine(Number.isSafeInteger, "ads must be ad ids"), { error: "ads must be a list" })
    .min(1, "ads must name at least one ad")
    .max(MAX_ADS_PER_PAGE, `ads must name at most ${MAX_ADS_PER_PAGE} ads`),
});

// ---------------------------------------------------------------- the console's form

export const AD_STATUSES = ["active", "scheduled", "ended", "inactive"] as const;
export type AdStatus = (typeof AD_STATUSES)[number];
export const AD_STATUS_LABELS: Record<AdStatus, string> = {
  active: "Active",
  scheduled: "Scheduled",
  ended: "Ended",
  inactive: "Retired",
};
export const AD_WEIGHT_MAX = 1000;
const KEYWORDS_MAX = 20;
const KEYWORD_MAX_LENGTH = 60;

const hasControlChars = (v: string) => [...v].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
/** A path on this site: one leading "/", never "//" or "\" (both lead elsewhere). */
const isLocalPath = (v: string) => v.startsWith("/") && !v.startsWith("//") && !v.includes("\\") && !hasControlChars(v);
const isWebAddress = (v: string, protocols: readonly string[]) => {
  try {
    const u = new URL(v);
    return protocols.includes(u.protocol) && u.hostname.includes(".") && !hasControlChars(v);
  } catch {
    return false;
  }
};

/** Where an ad may send a visitor: an http(s) address or a path on this site; never javascript: or data:. */
export const isAdTarget = (v: string) => isLocalPath(v) || isWebAddress(v, ["http:", "https:"]);

const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

const targetField = requiredText("Target URL", 2000).refine(isAdTarget, {
  error: "Target URL must be an http(s) address or a path on this site",
});

// An image is loaded by every visitor's browser: https or this site only (no mixed content).
const imageField = z.preprocess(
  emptyToUndefined,
  z
    .string({ error: "Image URL must be text" })
    .trim()
    .max(2000, "Image URL must be at most 2000 characters long")
    .refine((v) => isLocalPath(v) || isWebAddress(v, ["https:"]), {
      error: "Image URL must be an https address or a path on this site",
    })
    .optional(),
);

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (v: string) => DAY.test(v) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);
const dayField = (field: string) =>
  z
    .string({ error: messages.required(field) })
    .trim()
    .min(1, messages.required(field))
    .refine(isDay, {
      error: `${field} must be a date (YYYY-MM-DD)`,
    });

/** "a, B  c\nd" or ["a", "B  c"] → ["a", "b c", "d"]: lower case, single spaces, no repeats. */
const keywordList = z.preprocess(
  (v) => {
    const list = typeof v === "string" ? v.split(/[,\n]/) : v === undefined || v === null ? [] : v;
    if (!Array.isArray(list)) return list;
    const words = list.map((k) => (typeof k === "string" ? k.toLowerCase().replace(/\s+/g, " ").trim() : k));
    return [...new Set(words.filter((k) => k !== ""))];
  },
  z
    .array(
      z
        .string({ error: "Keywords must be text" })
        .max(KEYWORD_MAX_LENGTH, `Each keyword must be at most ${KEYWORD_MAX_LENGTH} characters long`),
      { error: "Keywords must be a list" },
    )
    .max(KEYWORDS_MAX, `At most ${KEYWORDS_MAX} keywords`),
);

const adFields = z.object({
  size: z.enum(AD_SIZES, { error: `Slot size must be one of ${AD_SIZES.join(", ")}` }),
  headline: requiredText("Headline", 80),
  body: z.preprocess(
    (v) => (v === undefined || v === null ? "" : v),
    z.string({ error: "Body must be text" }).trim().max(200, "Body must be at most 200 characters long"),
  ),
  imageUrl: imageField,
  targetUrl: targetField,
  startsOn: dayField("Start date"),
  endsOn: z.preprocess(emptyToUndefined, dayField("End date").optional()),
  weight: z.preprocess(
    (v) => v ?? 1,
    integerField("Weight", 1).refine((n) => n <= AD_WEIGHT_MAX, `Weight must be at most ${AD_WEIGHT_MAX}`),
  ),
  /** Empty or missing: every site. */
  siteId: z.preprocess(
    (v) => emptyToUndefined(v ?? undefined),
    z.string({ error: "Site must be text" }).trim().max(100, "Site is not one of the sites").optional(),
  ),
  keywords: keywordList,
});

/** A house ad as the console writes it; the end date may stay empty (no end). */
export const adInput = adFields.superRefine((ad, ctx) => {
  if (ad.endsOn && ad.endsOn < ad.startsOn)
    ctx.addIssue({ code: "custom", path: ["endsOn"], message: "End date must be on or after the start date" });
  if (ad.keywords.length > 0 && ad.size !== KEYWORD_AD_SIZE)
    ctx.addIssue({ code: "custom", path: ["keywords"], message: `Keywords are only for ${KEYWORD_AD_SIZE} ads` });
});
export type AdInput = z.output<typeof adInput>;

/** An edit: the whole ad again, with the `updatedAt` the editor saw (a stale one answers 409). */
export const adUpdatedAt = z.object({
  updatedAt: z.string({ error: "updatedAt is required" }).max(40, "updatedAt must be a date"),
});

/** The form's fields, in order: what a refused form may show again. */
export const AD_FORM_FIELDS = [...Object.keys(adFields.shape), "updatedAt"] as const;

const optionalChoice = <T extends readonly [string, ...string[]]>(field: string, values: T) =>
  z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.enum(values, { error: `${field} must be one of ${values.join(", ")}` }).optional(),
  );

export const AD_SORTS = ["id", "headline", "size", "weight", "startsOn", "impressions", "clicks", "ctr"] as const;
export type AdSort = (typeof AD_SORTS)[number];

export const adFilter = z.object({
  page: adminPage,
  size: optionalChoice("size", AD_SIZES),
  status: optionalChoice("status", AD_STATUSES),
  ...adminSort(AD_SORTS, "id"),
});

/** A house ad in the console, with its impressions, clicks and CTR of the last 30 days. */
export type AdminHouseAd = HouseAd & {
  weight: number;
  /** null: every site. */
  siteId: string | null;
  keywords: string[];
  startsOn: string;
  endsOn: string | null;
  active: boolean;
  status: AdStatus;
  impressions: number;
  clicks: number;
  /** clicks / impressions; null without impressions. */
  ctr: number | null;
  createdAt: string;
  updatedAt: string;
};
export type AdminAdList = AdminList<AdminHouseAd>;

// ---------------------------------------------------------------- the CTR report

/** Days the report covers when it is not told: the last 30, today included. */
export const REPORT_DEFAULT_DAYS = 30;
const REPORT_MAX_DAYS = 400;

const dayDiff = (from: string, to: string) => (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 864e5;

/** `?from=&to=` (UTC days, both included); missing ones mean the last 30 days up to today. */
export const adReportRange = z
  .object({
    from: z.preprocess(emptyToUndefined, dayField("from").optional()),
    to: z.preprocess(emptyToUndefined, dayField("to").optional()),
  })
  .transform(({ from, to }, ctx) => {
    const end = to ?? new Date().toISOString().slice(0, 10);
    const start =
      from ?? new Date(Date.parse(`${end}T00:00:00Z`) - (REPORT_DEFAULT_DAYS - 1) * 864e5).toISOString().slice(0, 10);
    if (start > end) ctx.addIssue({ code: "custom", path: ["from"], message: "from must be on or before to" });
    else if (dayDiff(start, end) >= REPORT_MAX_DAYS)
      ctx.addIssue({ code: "custom", path: ["from"], message: `The report covers at most ${REPORT_MAX_DAYS} days` });
    return { from: start, to: end };
  });
export type AdReportRange = z.output<typeof adReportRange>;

export type AdReportRow = {
  id: number;
  size: AdSize;
  headline: string;
  siteId: string | null;
  status: AdStatus;
  impressions: number;
  clicks: number;
  ctr: number | null;
};
export type AdReport = {
  from: string;
  to: string;
  items: AdReportRow[];
  totals: { impressions: number; clicks: number; ctr: number | null };
};

/** A CTR as people read it: "1.25%"; "–" without impressions. */
export const formatCtr = (ctr: number | null) => (ctr === null ? "–" : `${(ctr * 100).toFixed(2)}%`);
