// The offers search contract (spec §3 "Offer search payload", §4 filter state),
// shared by POST /api/offers/search, the home page loader and the browser: one
// schema, one normalisation of the query, one reading of the URL.
import { z } from "zod";
import { messages } from "./messages.ts";

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

export const OFFER_TABS = ["topOffers", "newest", "highestPayout", "payPerCall", "mobile"] as const;
export type OfferTab = (typeof OFFER_TABS)[number];
export const DEFAULT_TAB: OfferTab = "topOffers";
export const OFFER_TAB_LABELS: Record<OfferTab, string> = {
  topOffers: "Top Offers",
  newest: "Newest",
  highestPayout: "Highest Payout",
  payPerCall: "Pay Per Call",
  mobile: "Mobile",
};

export const OFFER_SORTS = ["payout", "name", "network", "newest", "popularity"] as const;
export type OfferSort = (typeof OFFER_SORTS)[number];
/** The direction a sort takes when the client does not say: the one people expect. */
export const DEFAULT_SORT_DESC: Record<OfferSort, boolean> = {
  payout: true,
  name: false,
  network: false,
  newest: true,
  popularity: true,
};

/** Spec §5: the offer search query is lowercased and trimmed before sending (and again on arrival). */
export function normalizeOfferQuery(query: string | null | undefined): string {
  return (query ?? "").toLowerCase().replace(/\s+/g, " ").trim();
}

// ---------------------------------------------------------------- the payload

const splitList = (v: unknown) => {
  if (v === undefined || v === null || v === "") return [];
  if (typeof v === "string" || typeof v === "number") return String(v).split(",").map((s) => s.trim()).filter(Boolean);
  return v;
};

/** Ids are PostgreSQL integers: a larger number names nothing (and would fail the query). */
const ID_MAX = 2_147_483_647;
const isId = (v: string) => /^\d{1,10}$/.test(v) && Number(v) >= 1 && Number(v) <= ID_MAX;

const idList = (field: string) =>
  z.preprocess(
    splitList,
    z
      .array(
        z.preprocess(
          (v) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v),
          z.number({ error: messages.integer(field) }).int(messages.integer(field)).min(1, messages.minValue(field, 1))
            .max(ID_MAX, `${field} must be a list of ids`),
        ),
        { error: `${field} must be a list of ids` },
      )
      .max(LIST_MAX, `${field} must have at most ${LIST_MAX} entries`)
      .transform((ids) => [...new Set(ids)]),
  );

const countryList = z.preprocess(
  splitList,
  z
    .array(z.string({ error: "countries must be two-letter country codes" }).regex(/^[A-Za-z]{2}$/, "countries must be two-letter country codes"), {
      error: "countries must be a list of country codes",
    })
    .max(LIST_MAX, `countries must have at most ${LIST_MAX} entries`)
    .transform((codes) => [...new Set(codes.map((c) => c.toUpperCase()))]),
);

const flag = (field: string) =>
  z.preprocess(
    (v) => (v === "true" || v === "1" ? true : v === "false" || v === "0" || v === "" || v === null ? false : v),
    z.boolean({ error: `${field} must be true or false` }).optional(),
  );

export const offerSearchPayload = z.object({
  query: z
    .string({ error: "query must be text" })
    .max(QUERY_MAX_LENGTH, `query must be at most ${QUERY_MAX_LENGTH} characters long`)
    .nullish()
    .transform(normalizeOfferQuery),
  page: z.preprocess(
    (v) => (v === undefined || v === null || v === "" ? 1 : typeof v === "string" && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v),
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
  networks: idList("networks"),
  countries: countryList,
  categories: idList("categories"),
  ppc: flag("ppc"),
  mobile: flag("mobile"),
  selectedTab: z.preprocess(
    (v) => (v === undefined || v === null || v === "" ? DEFAULT_TAB : v),
    z.enum(OFFER_TABS, { error: `selectedTab must be one of ${OFFER_TABS.join(", ")}` }),
  ),
});

/** What a client sends (every field optional; lists may also be comma-separated strings). */
export type OfferSearchInput = {
  query?: string; page?: number; sortBy?: OfferSort; sortDesc?: boolean; networks?: number[]; countries?: string[];
  categories?: number[]; ppc?: boolean; mobile?: boolean; selectedTab?: OfferTab;
};
export type OfferSearch = z.output<typeof offerSearchPayload>;

/** Parses a JSON body; a missing body is an empty search. Throws ZodError (→ 400) on bad input. */
export function parseOfferSearchPayload(body: unknown): OfferSearch {
  if (body === undefined || body === null) return offerSearchPayload.parse({});
  if (typeof body !== "object" || Array.isArray(body)) throw new z.ZodError([{ code: "custom", path: [], message: "The search payload must be a JSON object", input: body }]);
  return offerSearchPayload.parse(body);
}

// ---------------------------------------------------------------- the URL

/** Query-string names of the page's filter state (spec §2: search, selectedTab, page). */
export const URL_KEYS = ["search", "selectedTab", "page", "networks", "countries", "categories", "sortBy", "sortDesc"] as const;

/**
 * Reads the page state from a URL, forgivingly: a bookmarked or hand-edited
 * link with one bad value still shows results, with that value dropped.
 * Lists may be repeated (`countries=US&countries=CA`) or comma-separated.
 */
export function offerSearchFromUrl(params: URLSearchParams, fixed: { ppc?: boolean } = {}): OfferSearch {
  const list = (key: string) => params.getAll(key).flatMap((v) => v.split(",")).map((s) => s.trim()).filter(Boolean);
  const pick = <T>(schema: z.ZodType<T>, value: unknown, fallback: T): T => {
    const r = schema.safeParse(value);
    return r.success ? r.data : fallback;
  };
  const shape = offerSearchPayload.shape;
  const pageRaw = Number(params.get("page"));
  return {
    query: normalizeOfferQuery((params.get("search") ?? "").slice(0, QUERY_MAX_LENGTH)),
    page: Number.isInteger(pageRaw) && pageRaw >= 1 ? Math.min(pageRaw, OFFERS_MAX_PAGE) : 1,
    sortBy: pick(shape.sortBy, params.get("sortBy") ?? undefined, undefined),
    sortDesc: pick(shape.sortDesc, params.get("sortDesc") ?? undefined, undefined),
    networks: list("networks").filter(isId).map(Number).filter((v, i, a) => a.indexOf(v) === i).slice(0, LIST_MAX),
    countries: list("countries").filter((v) => /^[A-Za-z]{2}$/.test(v)).map((v) => v.toUpperCase()).filter((v, i, a) => a.indexOf(v) === i).slice(0, LIST_MAX),
    categories: list("categories").filter(isId).map(Number).filter((v, i, a) => a.indexOf(v) === i).slice(0, LIST_MAX),
    ppc: fixed.ppc ?? undefined,
    mobile: undefined,
    selectedTab: pick(shape.selectedTab, params.get("selectedTab") ?? undefined, DEFAULT_TAB),
  };
}

/** The URL query string for a state; lists comma-separated, defaults still spelled out for the spec's three keys. */
export function offerSearchToUrl(state: Pick<OfferSearch, "query" | "page" | "selectedTab"> & Partial<OfferSearch>): string {
  const p = new URLSearchParams();
  p.set("selectedTab", state.selectedTab);
  p.set("search", state.query);
  p.set("page", String(state.page));
  if (state.networks?.length) p.set("networks", state.networks.join(","));
  if (state.countries?.length) p.set("countries", state.countries.join(","));
  if (state.categories?.length) p.set("categories", state.categories.join(","));
  if (state.sortBy) p.set("sortBy", state.sortBy);
  if (state.sortDesc !== undefined && state.sortBy) p.set("sortDesc", String(state.sortDesc));
  return p.toString();
}

// ---------------------------------------------------------------- answers

export type OfferCurrency = { code: string; symbol: string; decimalDigits: number; rounding: number };

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
};

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

export const offerUrl = (o: { id: number; slug: string }) => `/offer/${o.id}/${o.slug}`;
export const compareUrl = (ids: readonly number[]) => `/compare?ids=${ids.join(",")}`;

/** Reads `/compare?ids=1,2` (or repeated ids): positive integers, first COMPARE_MAX, no duplicates. */
export function compareIdsFromUrl(params: URLSearchParams): number[] {
  const ids = params.getAll("ids").flatMap((v) => v.split(",")).map((s) => s.trim()).filter((s) => /^\d{1,15}$/.test(s)).map(Number).filter((n) => n > 0);
  return [...new Set(ids)].slice(0, COMPARE_MAX);
}
