// The offers search contract (docs/product.md §3 "Offer search payload", §4 filter state),
// shared by POST /api/offers/search, the home page loader and the browser: one
// schema, one normalisation of the query, one reading of the URL.
import { z } from "zod";
import { messages } from "./messages.ts";
import { adminPage, adminSort, type AdminList } from "./admin.ts";
import type { SourcePlatform } from "./supply.ts";
import { integerField, requiredText } from "./validation.ts";
import { normalizeOfferQuery } from "./text.ts";
import { formatNumber } from "./numbers.ts";

/** Fixed by the server: every page of results holds this many offers. */
export const OFFERS_PAGE_SIZE = 25;
/**
 * Totals are counted up to this many matches (40 pages); beyond it `totalCapped`
 * is true and the page says "1,000+". Counting a million matches exactly would
 * cost more than finding the page itself, and nobody reads page 41.
 */
export const OFFERS_TOTAL_CAP = 1_000;
/** Deepest page a client may ask for (the capped total divided by the page size). */
export const OFFERS_MAX_PAGE = OFFERS_TOTAL_CAP / OFFERS_PAGE_SIZE;
/** Sponsored offers pinned at the top of the first page of the Top Offers tab. */
export const SPONSORED_PINS = 3;
/** At most this many offers side by side on /compare. */
export const COMPARE_MAX = 4;
export const QUERY_MAX_LENGTH = 200;
/** The pages that run an offers search from their query string (they share the API's search budget). */
export const OFFER_SEARCH_PAGES: readonly string[] = ["/", "/pay-per-call-offers"];
const LIST_MAX = 100;

/**
 * The spec's tabs, then the views of offer supply (issue #13): `updated`, offers
 * added or changed in the last RECENT_DAYS days, most recent first; and
 * `payoutIncreased`, offers whose payout rose in that time, latest rise first.
 */
export const OFFER_TABS = [
  "topOffers",
  "newest",
  "highestPayout",
  "payPerCall",
  "mobile",
  "updated",
  "payoutIncreased",
] as const;
export type OfferTab = (typeof OFFER_TABS)[number];
export const DEFAULT_TAB: OfferTab = "topOffers";
/** How far back "new", "updated" and payout changes reach (views and marks alike). */
export const RECENT_DAYS = 7;
export const OFFER_TAB_LABELS: Record<OfferTab, string> = {
  topOffers: "Top Offers",
  newest: "Newest",
  highestPayout: "Highest Payout",
  payPerCall: "Pay Per Call",
  mobile: "Mobile",
  updated: `Updated in the last ${RECENT_DAYS} days`,
  payoutIncreased: "Payout increased",
};

const OFFER_SORTS = ["payout", "name", "network", "newest", "popularity"] as const;
export type OfferSort = (typeof OFFER_SORTS)[number];
/** The direction a sort takes when the client does not say: the one people expect. */
export const DEFAULT_SORT_DESC: Record<OfferSort, boolean> = {
  payout: true,
  name: false,
  network: false,
  newest: true,
  popularity: true,
};

export { normalizeOfferQuery } from "./text.ts";

// ---------------------------------------------------------------- the payload

/** "1, 2,,3" → ["1", "2", "3"]: how a list travels as text. */
const splitText = (v: string) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

const splitList = (v: unknown) => {
  if (v === undefined || v === null || v === "") return [];
  if (typeof v === "string" || typeof v === "number") return splitText(String(v));
  return v;
};

const unique = <T>(values: readonly T[]) => [...new Set(values)];

/** Ids are PostgreSQL integers: a larger number names nothing (and would fail the query). */
const ID_MAX = 2_147_483_647;

const idEntry = (field: string) =>
  z.preprocess(
    (v) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v),
    z
      .number({ error: messages.integer(field) })
      .int(messages.integer(field))
      .min(1, messages.minValue(field, 1))
      .max(ID_MAX, `${field} must be a list of ids`),
  );

const countryEntry = z
  .string({ error: "countries must be two-letter country codes" })
  .regex(/^[A-Za-z]{2}$/, "countries must be two-letter country codes")
  .transform((code) => code.toUpperCase());

/** A list field: its entries (each read by `entry`), at most LIST_MAX, duplicates dropped. */
const listOf = <T>(entry: z.ZodType<T>, error: string, field: string) =>
  z.preprocess(
    splitList,
    z.array(entry, { error }).max(LIST_MAX, `${field} must have at most ${LIST_MAX} entries`).transform(unique),
  );

/** The entry schema of each list field, so a URL's list keeps its good entries and drops the bad ones. */
const LIST_ENTRIES = {
  networks: idEntry("networks"),
  countries: countryEntry,
  categories: idEntry("categories"),
};

const flag = (field: string) =>
  z.preprocess(
    (v) => (v === "true" || v === "1" ? true : v === "false" || v === "0" || v === "" || v === null ? false : v),
    z.boolean({ error: `${field} must be true or false` }).optional(),
  );

const queryTooLong = `query must be at most ${QUERY_MAX_LENGTH} characters long`;

export const offerSearchPayload = z.object({
  // Bounded before normalising (which costs) and after (lowercasing may lengthen text: "İ" becomes two characters).
  query: z
    .string({ error: "query must be text" })
    .max(QUERY_MAX_LENGTH, queryTooLong)
    .nullish()
    .transform(normalizeOfferQuery)
    .pipe(z.string().max(QUERY_MAX_LENGTH, queryTooLong)),
  page: z.preprocess(
    (v) =>
      v === undefined || v === null || v === "" ? 1 : typeof v === "string" && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v,
    z
      .number({ error: messages.integer("page") })
      .int(messages.integer("page"))
      .min(1, messages.minValue("page", 1))
      .max(OFFERS_MAX_PAGE, `page must be less than or equal to ${OFFERS_MAX_PAGE}`),
  ),
  sortBy: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z.enum(OFFER_SORTS, { error: `sortBy must be one of ${OFFER_SORTS.join(", ")}` }).optional(),
  ),
  sortDesc: flag("sortDesc"),
  networks: listOf(LIST_ENTRIES.networks, "networks must be a list of ids", "networks"),
  countries: listOf(LIST_ENTRIES.countries, "countries must be a list of country codes", "countries"),
  categories: listOf(LIST_ENTRIES.categories, "categories must be a list of ids", "categories"),
  ppc: flag("ppc"),
  mobile: flag("mobile"),
  selectedTab: z.preprocess(
    (v) => (v === undefined || v === null || v === "" ? DEFAULT_TAB : v),
    z.enum(OFFER_TABS, { error: `selectedTab must be one of ${OFFER_TABS.join(", ")}` }),
  ),
});

/** What a client sends (every field optional; lists may also be comma-separated strings). */
export type OfferSearchInput = {
  query?: string;
  page?: number;
  sortBy?: OfferSort;
  sortDesc?: boolean;
  networks?: number[];
  countries?: string[];
  categories?: number[];
  ppc?: boolean;
  mobile?: boolean;
  selectedTab?: OfferTab;
};
export type OfferSearch = z.output<typeof offerSearchPayload>;

/** Parses a JSON body; a missing body is an empty search. Throws ZodError (→ 400) on bad input. */
export function parseOfferSearchPayload(body: unknown): OfferSearch {
  if (body === undefined || body === null) return offerSearchPayload.parse({});
  if (typeof body !== "object" || Array.isArray(body))
    throw new z.ZodError([
      { code: "custom", path: [], message: "The search payload must be a JSON object", input: body },
    ]);
  return offerSearchPayload.parse(body);
}

// ---------------------------------------------------------------- the URL

/** Where each field of the state sits in a page's query string. ppc and mobile never do: a page fixes ppc itself. */
const URL_NAMES = {
  query: "search",
  page: "page",
  sortBy: "sortBy",
  sortDesc: "sortDesc",
  networks: "networks",
  countries: "countries",
  categories: "categories",
  selectedTab: "selectedTab",
} as const satisfies Partial<Record<keyof OfferSearch, string>>;

/** Each field's schema, typed by what it reads. */
const FIELD_SCHEMAS: { [K in keyof OfferSearch]-?: z.ZodType<OfferSearch[K]> } = offerSearchPayload.shape;

/** The empty search: each field's value when the URL does not give a usable one. */
const EMPTY_SEARCH: OfferSearch = offerSearchPayload.parse({});

/**
 * One URL value read by its field's strict schema: a value past the schema's
 * bound is cut to it (page 41 → 40, an over-long search → its first characters),
 * any other bad value gives `fallback`.
 */
function readLeniently<T>(schema: z.ZodType<T>, value: unknown, fallback: T): T {
  const first = schema.safeParse(value);
  if (first.success) return first.data;
  // The tightest bound decides (a huge page breaks both the safe-integer range and the page bound).
  const tooBig = first.error.issues.flatMap((i) => (i.code === "too_big" ? [i] : []));
  if (!tooBig.length) return fallback;
  const bound = Math.min(...tooBig.map((i) => Number(i.maximum)));
  const cut =
    typeof value === "string" && tooBig[0].origin === "string"
      ? value.slice(0, bound)
      : Array.isArray(value)
        ? value.slice(0, bound)
        : bound;
  const second = schema.safeParse(cut);
  return second.success ? second.data : fallback;
}

/**
 * Reads the page state from a URL, forgivingly, field by field with the
 * payload's own schemas: a bookmarked or hand-edited link with one bad value
 * still shows results, with that value dropped (in a list, only the bad entries).
 * Lists may be repeated (`countries=US&countries=CA`) or comma-separated.
 */
export function offerSearchFromUrl(params: URLSearchParams, fixed: { ppc?: boolean } = {}): OfferSearch {
  const one = <K extends "query" | "page" | "sortBy" | "sortDesc" | "selectedTab">(field: K) =>
    readLeniently(
      FIELD_SCHEMAS[field] as z.ZodType<OfferSearch[K]>,
      params.get(URL_NAMES[field]) ?? undefined,
      EMPTY_SEARCH[field],
    );
  const list = <K extends keyof typeof LIST_ENTRIES>(field: K) => {
    const good = params
      .getAll(URL_NAMES[field])
      .flatMap(splitText)
      .flatMap((entry) => {
        const r = LIST_ENTRIES[field].safeParse(entry);
        return r.success ? [r.data] : [];
      });
    return readLeniently(FIELD_SCHEMAS[field] as z.ZodType<OfferSearch[K]>, unique(good), EMPTY_SEARCH[field]);
  };
  return {
    query: one("query"),
    page: one("page"),
    sortBy: one("sortBy"),
    sortDesc: one("sortDesc"),
    networks: list("networks"),
    countries: list("countries"),
    categories: list("categories"),
    ppc: fixed.ppc ?? EMPTY_SEARCH.ppc,
    mobile: EMPTY_SEARCH.mobile,
    selectedTab: one("selectedTab"),
  };
}

/** The URL query string for a state; lists comma-separated, defaults still spelled out for the spec's three keys. */
export function offerSearchToUrl(
  state: Pick<OfferSearch, "query" | "page" | "selectedTab"> & Partial<OfferSearch>,
): string {
  const p = new URLSearchParams();
  p.set(URL_NAMES.selectedTab, state.selectedTab);
  p.set(URL_NAMES.query, state.query);
  p.set(URL_NAMES.page, String(state.page));
  if (state.networks?.length) p.set(URL_NAMES.networks, state.networks.join(","));
  if (state.countries?.length) p.set(URL_NAMES.countries, state.countries.join(","));
  if (state.categories?.length) p.set(URL_NAMES.categories, state.categories.join(","));
  if (state.sortBy) p.set(URL_NAMES.sortBy, state.sortBy);
  if (state.sortDesc !== undefined && state.sortBy) p.set(URL_NAMES.sortDesc, String(state.sortDesc));
  return p.toString();
}

// ---------------------------------------------------------------- answers

type OfferCurrency = { code: string; symbol: string; decimalDigits: number; rounding: number };

/** One row of an offers table. */
export type OfferListItem = {
  id: number;
  slug: string;
  name: string;
  networkId: number;
  networkSlug: string;
  networkName: string;
  payoutAmount: number | null;
  payoutPercent: number | null;
  payoutType: string;
  currency: OfferCurrency;
  countries: string[];
  categories: string[];
  sponsored: boolean;
  /** True for the sponsored offers pinned above the results on the first page. */
  pinned?: boolean;
  mobile: boolean;
  ppc: boolean;
  createdAt: string;
  /** Search rows only: first listed in the last RECENT_DAYS days. */
  isNew?: boolean;
  /** Search rows only: the payout's last change, when it was in the last RECENT_DAYS days; else null. */
  payoutChange?: PayoutChange | null;
};

/**
 * A payout's last change: the difference in USD (the ranking payout) when the
 * payout has an amount before and after, else in percentage points.
 */
export type PayoutChange = { at: string; direction: "up" | "down"; usd: number | null; percent: number | null };

export type OfferSearchResult = {
  offers: OfferListItem[];
  total: number;
  page: number;
  pageSize: number;
  /** True when there are more matches than OFFERS_TOTAL_CAP; `total` is then the cap. */
  totalCapped: boolean;
  /** True when full-text search found (almost) nothing and close spellings were matched instead. */
  fuzzy: boolean;
  query: string;
  selectedTab: OfferTab;
};

/** The network card of an offer page: its standing and the joining link on this site. */
type OfferNetworkCard = {
  id: number;
  slug: string;
  name: string;
  logoUrl: string | null;
  avgRating: number;
  reviewCount: number;
  featured: boolean;
  offerCount: number;
  joiningLink: string | null;
  website: string | null;
};

/** One offer with every field its page shows. */
export type OfferDetail = {
  id: number;
  legacyId: number | null;
  slug: string;
  name: string;
  description: string;
  previewUrl: string | null;
  landingDomain: string | null;
  productKey: string;
  payoutAmount: number | null;
  payoutPercent: number | null;
  payoutUsd: number | null;
  payoutType: string;
  currency: OfferCurrency;
  countries: { code: string; name: string }[];
  categories: { id: number; slug: string; name: string }[];
  mobile: boolean;
  ppc: boolean;
  allowedTraffic: string[];
  restrictedTraffic: string[];
  sponsored: boolean;
  status: string;
  popularity: number;
  createdAt: string;
  updatedAt: string;
  network: OfferNetworkCard;
  /** When a sync last saw the offer at its network's platform; null for offers not synced. */
  verification: { at: string; platform: SourcePlatform } | null;
  /** Every change of payout, currency, type or status, oldest first (the last 100). */
  payoutHistory: PayoutHistoryPoint[];
};

/** One row of offer_history as the offer page shows it. */
export type PayoutHistoryPoint = {
  at: string;
  payout: number | null;
  payoutPercent: number | null;
  currency: OfferCurrency;
  payoutType: string;
  status: string;
};

/** One row of "Same offer at other networks". */
export type SameOfferRow = OfferListItem & { payoutUsd: number | null; networkRating: number; current: boolean };

/** An offer page's answer: the offer, the same product elsewhere and similar offers. */
export type OfferPage = { offer: OfferDetail; sameOffer: SameOfferRow[]; similarOffers: OfferListItem[] };

/** An offer category (what the pages call a vertical). */
export type Category = { id: number; slug: string; name: string; top: boolean };
export type TopCategory = Category & { offerCount: number };

export type FilterNetwork = { id: number; name: string };
export type FilterCountry = { code: string; name: string };
/** The whole lists the search's filters pick from (GET /api/offer-filters). */
export type FilterOptions = { networks: FilterNetwork[]; categories: Category[]; countries: FilterCountry[] };

export const offerUrl = (o: { id: number; slug: string }) => `/offer/${o.id}/${o.slug}`;
export const compareUrl = (ids: readonly number[]) => `/compare?ids=${ids.join(",")}`;

/** Reads `/compare?ids=1,2` (or repeated ids): positive integers, first COMPARE_MAX, no duplicates. */
export function compareIdsFromUrl(params: URLSearchParams): number[] {
  const ids = params
    .getAll("ids")
    .flatMap(splitText)
    .filter((s) => /^\d{1,15}$/.test(s))
    .map(Number)
    .filter((n) => n > 0);
  return [...new Set(ids)].slice(0, COMPARE_MAX);
}

// ---------------------------------------------------------------- the console (/api/admin/offers)

/** What GET /api/offers/{id} answers (410) for a retired offer. */
export const OFFER_RETIRED = "This offer is no longer listed";

/** active, paused and expired come from networks; retired is the operator taking an offer out of the directory. */
export const OFFER_STATUSES = ["active", "paused", "expired", "retired"] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];
/** What an edit may set; retiring and restoring are their own actions. */
export const EDITABLE_STATUSES = ["active", "paused", "expired"] as const;
export const PAYOUT_TYPES = ["CPA", "CPL", "CPS", "CPI", "CPC", "pay-per-call", "revshare"] as const;
const NAME_MAX = 200;
const DESCRIPTION_MAX = 5000;
const TEXT_LIST_MAX = 20;
const KEYWORD_MAX = 100;
/** numeric(12,2) and numeric(5,2): the columns' own bounds. */
const AMOUNT_MAX = 9_999_999_999.99;
const PERCENT_MAX = 100;

/**
 * A sponsor keyword, or a search, as keywords are matched: lowercase words
 * separated by single spaces, punctuation dropped. A keyword matches a search
 * that holds its words in a row ("vpn" matches "best vpn deals").
 */
export function sponsorKeywordText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

const sortColumns = ["updatedAt", "name", "network", "status", "payout", "popularity", "createdAt"] as const;

export const adminOfferFilter = z.object({
  page: adminPage,
  ...adminSort(sortColumns, "updatedAt"),
  q: z
    .string({ error: "q must be text" })
    .trim()
    .max(NAME_MAX, `q must be at most ${NAME_MAX} characters long`)
    .optional()
    .transform((v) => v || undefined),
  networkId: z.preprocess(
    (v) => (v === "" ? undefined : v),
    integerField("networkId", 1)
      .refine((n) => n <= ID_MAX, "networkId must be a network's id")
      .optional(),
  ),
  status: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.enum(OFFER_STATUSES, { error: `status must be one of ${OFFER_STATUSES.join(", ")}` }).optional(),
  ),
  sponsored: z.preprocess(
    (v) => (v === "" ? undefined : v === "true" ? true : v === "false" ? false : v),
    z.boolean({ error: "sponsored must be true or false" }).optional(),
  ),
});
export type AdminOfferFilter = z.output<typeof adminOfferFilter>;

const formFlag = (field: string) =>
  z.preprocess(
    (v) =>
      v === undefined || v === null || v === "" || v === "false" || v === "0"
        ? false
        : v === "true" || v === "on" || v === "1"
          ? true
          : v,
    z.boolean({ error: `${field} must be true or false` }),
  );

const optionalTrimmed = (field: string, max: number) =>
  z.preprocess(
    (v) => (v === null ? undefined : v),
    z
      .string({ error: `${field} must be text` })
      .trim()
      .max(max, `${field} must be at most ${max} characters long`)
      .optional()
      .transform((v) => v || null),
  );

/** A list sent as an array or as comma-separated text (a form's text box); each entry checked by `entry`. */
const textList = (field: string, entry: (v: string) => string | null, max = TEXT_LIST_MAX) =>
  z.preprocess(
    (v) => (v === undefined || v === null ? [] : typeof v === "string" ? v.split(",") : v),
    z
      .array(z.string({ error: `${field} must be a list of text` }), { error: `${field} must be a list of text` })
      .transform((list, ctx) => {
        const out: string[] = [];
        for (const raw of list) {
          const value = raw.trim();
          if (!value) continue;
          const problem = entry(value);
          if (problem) {
            ctx.addIssue({ code: "custom", message: problem, input: raw });
            return z.NEVER;
          }
          if (!out.includes(value)) out.push(value);
        }
        if (out.length > max) {
          ctx.addIssue({ code: "custom", message: `${field} must have at most ${max} entries`, input: list });
          return z.NEVER;
        }
        return out;
      }),
  );

const decimal = (field: string, max: number) =>
  z.preprocess(
    (v) =>
      v === undefined || v === null || v === ""
        ? null
        : typeof v === "string" && /^\s*\d{1,10}(\.\d{1,2})?\s*$/.test(v)
          ? Number(v)
          : v,
    z
      .number({ error: `${field} must be a number with at most 2 decimals` })
      .min(0, messages.minValue(field, 0))
      .max(max, `${field} must be at most ${formatNumber(max)}`)
      .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, `${field} must have at most 2 decimals`)
      .nullable(),
  );

const day = (field: string) =>
  z.preprocess(
    (v) => (v === undefined || v === null || v === "" ? null : v),
    z
      .string({ error: `${field} must be a date (YYYY-MM-DD)` })
      .regex(/^\d{4}-\d{2}-\d{2}$/, `${field} must be a date (YYYY-MM-DD)`)
      .refine((d) => {
        const date = new Date(`${d}T00:00:00Z`);
        return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(d) && d >= "2000-01-01";
      }, `${field} must be a date (YYYY-MM-DD)`)
      .nullable(),
  );

/** Every field an offer has that the operator sets (the console's form and POST/PUT /api/admin/offers). */
export const offerInput = z
  .object({
    name: requiredText("name", NAME_MAX),
    networkId: integerField("networkId", 1).refine((n) => n <= ID_MAX, "networkId must be a network's id"),
    slug: z.preprocess(
      (v) => (v === null || v === "" ? undefined : v),
      z
        .string({ error: "slug must be text" })
        .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "slug can only contain lowercase letters, digits and single dashes")
        .max(NAME_MAX, `slug must be at most ${NAME_MAX} characters long`)
        .optional(),
    ),
    description: optionalTrimmed("description", DESCRIPTION_MAX).transform((v) => v ?? ""),
    previewUrl: optionalTrimmed("previewUrl", 2000).refine(
      (v) => v === null || /^https?:\/\/[^\s/]+\.[^\s/]+/i.test(v),
      "previewUrl must be an http or https address",
    ),
    landingDomain: optionalTrimmed("landingDomain", 253)
      .transform((v) => v?.toLowerCase() ?? null)
      .refine(
        (v) => v === null || /^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/.test(v),
        "landingDomain must be a host name such as example.com",
      ),
    externalId: optionalTrimmed("externalId", 100),
    payoutType: z.enum(PAYOUT_TYPES, { error: `payoutType must be one of ${PAYOUT_TYPES.join(", ")}` }),
    payoutAmount: decimal("payoutAmount", AMOUNT_MAX),
    payoutPercent: decimal("payoutPercent", PERCENT_MAX),
    currency: z
      .string({ error: "currency must be a currency code" })
      .regex(/^[A-Za-z]{3}$/, "currency must be a currency code")
      .transform((c) => c.toUpperCase()),
    countries: textList(
      "countries",
      (c) => (/^[A-Za-z]{2}$/.test(c) ? null : "countries must be two-letter country codes"),
      300,
    ).transform((list) => [...new Set(list.map((c) => c.toUpperCase()))]),
    categoryIds: z.preprocess(
      (v) => (v === undefined || v === null ? [] : typeof v === "string" ? splitText(v) : v),
      z
        .array(
          z.preprocess((x) => (typeof x === "string" && /^\d{1,9}$/.test(x) ? Number(x) : x), z.number()),
          {
            error: "categoryIds must be a list of vertical ids",
          },
        )
        .refine(
          (ids) => ids.every((id) => Number.isInteger(id) && id >= 1 && id <= ID_MAX),
          "categoryIds must be a list of vertical ids",
        )
        .refine((ids) => ids.length <= 50, "categoryIds must have at most 50 entries")
        .transform(unique),
    ),
    mobile: formFlag("mobile"),
    ppc: formFlag("ppc"),
    allowedTraffic: textList("allowedTraffic", (t) =>
      t.length > 60 ? "allowedTraffic entries must be at most 60 characters long" : null,
    ),
    restrictedTraffic: textList("restrictedTraffic", (t) =>
      t.length > 60 ? "restrictedTraffic entries must be at most 60 characters long" : null,
    ),
    status: z.preprocess(
      (v) => (v === undefined || v === null || v === "" ? "active" : v),
      z.enum(EDITABLE_STATUSES, {
        error: `status must be one of ${EDITABLE_STATUSES.join(", ")} (retire an offer with its own action)`,
      }),
    ),
    sponsored: formFlag("sponsored"),
    sponsoredKeywords: textList("sponsoredKeywords", (k) =>
      k.length > KEYWORD_MAX
        ? `sponsoredKeywords entries must be at most ${KEYWORD_MAX} characters long`
        : sponsorKeywordText(k)
          ? null
          : "sponsoredKeywords entries must hold a letter or a digit",
    ).transform((list) => [...new Set(list.map(sponsorKeywordText))]),
    sponsoredFrom: day("sponsoredFrom"),
    sponsoredUntil: day("sponsoredUntil"),
  })
  .superRefine((o, ctx) => {
    if (o.payoutAmount === null && o.payoutPercent === null)
      ctx.addIssue({ code: "custom", path: ["payoutAmount"], message: "Give a payout amount or a percentage" });
    if (o.sponsoredFrom && o.sponsoredUntil && o.sponsoredUntil < o.sponsoredFrom)
      ctx.addIssue({
        code: "custom",
        path: ["sponsoredUntil"],
        message: "sponsoredUntil must be on or after sponsoredFrom",
      });
  });
export type OfferInput = z.output<typeof offerInput>;

/** The version an edit, a retirement or a restore was made from (a stale one answers 409). */
export const offerVersion = z.object({
  updatedAt: z
    .string({ error: "updatedAt is required" })
    .min(1, "updatedAt is required")
    .max(40, "updatedAt must be a date"),
});

/** One row of the console's offer list. */
export type AdminOfferRow = {
  id: number;
  name: string;
  slug: string;
  networkId: number;
  networkName: string;
  status: OfferStatus;
  sponsored: boolean;
  sponsoredKeywords: string[];
  sponsoredFrom: string | null;
  sponsoredUntil: string | null;
  payoutAmount: number | null;
  payoutPercent: number | null;
  payoutType: string;
  currency: string;
  payoutUsd: number | null;
  popularity: number;
  createdAt: string;
  updatedAt: string;
};
export type AdminOfferPage = AdminList<AdminOfferRow>;

/** An offer as the console edits it: every field it sets, and what the database keeps. */
export type AdminOffer = Omit<OfferInput, "slug" | "status"> & {
  id: number;
  slug: string;
  networkName: string;
  status: OfferStatus;
  payoutUsd: number | null;
  popularity: number;
  legacyId: number | null;
  createdAt: string;
  updatedAt: string;
};

/** The lists the console's offer form picks from. */
export type OfferChoices = {
  networks: { id: number; name: string }[];
  categories: { id: number; name: string }[];
  countries: { code: string; name: string }[];
  currencies: readonly string[];
};
