// The CSV export of an offers search (issue #14, GET /api/offers/export.csv):
// the search the home page shows, its first EXPORT_MAX_ROWS offers in the same
// order, as RFC 4180 text a spreadsheet opens right (UTF-8 with a BOM, CRLF)
// and cannot be tricked by (cells that would start a formula are neutralised).
//
// The rows come from the offers search itself, page after page, so an export
// can never disagree with the table: same filters, same order, the sponsored
// pins where page 1 shows them (the search already leaves them out of the
// organic list, so no offer appears twice).
import {
  OFFERS_TOTAL_CAP,
  offerSearchPayload,
  offerUrl,
  type OfferListItem,
  type OfferSearch,
  type OfferSearchResult,
} from "#contracts/offers.ts";
import { formatPayout } from "#contracts/money.ts";
// The table's own display helpers (pure text, no React), so the shown columns read as the table does.
import { categoriesText, dateText, geosText, payoutTypeLabel } from "#app/routes/offers/format.ts";

/** An export holds at most the rows a search can page through (40 pages of 25). */
export const EXPORT_MAX_ROWS = OFFERS_TOTAL_CAP;

/** Per user: an export runs up to 40 searches, so it is rationed well below the search budget. */
export const EXPORT_RATE_RULE = { limit: 10, windowSeconds: 60 };

const BOM = "\ufeff";
const CRLF = "\r\n";
/** How list cells (countries, verticals) join their entries. */
const LIST_SEPARATOR = "; ";

// ---------------------------------------------------------------- reading the request

/**
 * The export's search from the home page's query string (the names offerSearchToUrl
 * writes), read strictly: unlike a page, which drops a bad value and still shows
 * results, a file whose filters were silently changed would mislead, so a bad
 * value is refused (ZodError → 400). `page` is ignored: an export starts at the
 * top. `ppc=true` is the pay-per-call page's fixed filter.
 */
export function exportSearchFromUrl(params: URLSearchParams): OfferSearch {
  const one = (name: string) => params.get(name) ?? undefined;
  const list = (name: string) => params.getAll(name).join(",");
  return offerSearchPayload.parse({
    query: one("search"),
    sortBy: one("sortBy"),
    sortDesc: one("sortDesc"),
    networks: list("networks"),
    countries: list("countries"),
    categories: list("categories"),
    ppc: one("ppc"),
    selectedTab: one("selectedTab"),
  });
}

// ---------------------------------------------------------------- collecting the rows

type Search = (input: OfferSearch) => Promise<OfferSearchResult>;

/** The search's first `max` offers in its order, page by page until the matches run out. */
export async function exportRows(search: Search, input: OfferSearch, max = EXPORT_MAX_ROWS): Promise<OfferListItem[]> {
  const rows: OfferListItem[] = [];
  for (let page = 1; rows.length < max; page++) {
    const result = await search({ ...input, page });
    rows.push(...result.offers);
    const lastPage = Math.ceil(result.total / result.pageSize);
    if (result.offers.length < result.pageSize || page >= lastPage) break;
  }
  return rows.slice(0, max);
}

// ---------------------------------------------------------------- the columns

type Cell = string | number | boolean | null;
type Column = { name: string; cell: (o: OfferListItem, origin: string) => Cell };

/**
 * The file's columns, in order. The names are a contract (docs/api.md): scripts
 * read them, so they only ever grow at the end. The first eight read as the
 * results table shows them; the rest are the raw values behind them.
 */
export const EXPORT_COLUMNS: readonly Column[] = [
  { name: "offer_id", cell: (o) => o.id },
  { name: "offer", cell: (o) => o.name },
  { name: "network_id", cell: (o) => o.networkId },
  { name: "network", cell: (o) => o.networkName },
  { name: "payout", cell: (o) => formatPayout(o) },
  { name: "type", cell: (o) => payoutTypeLabel(o.payoutType) },
  { name: "geos", cell: (o) => geosText(o.countries) },
  { name: "vertical", cell: (o) => categoriesText(o) },
  { name: "date", cell: (o) => dateText(o.createdAt) },
  { name: "sponsored", cell: (o) => o.sponsored },
  { name: "pinned", cell: (o) => o.pinned === true },
  { name: "new", cell: (o) => o.isNew === true },
  { name: "payout_change", cell: (o) => o.payoutChange?.direction ?? null },
  { name: "payout_change_usd", cell: (o) => o.payoutChange?.usd ?? null },
  { name: "payout_change_percent", cell: (o) => o.payoutChange?.percent ?? null },
  { name: "payout_changed_at", cell: (o) => o.payoutChange?.at ?? null },
  { name: "payout_amount", cell: (o) => o.payoutAmount },
  { name: "payout_percent", cell: (o) => o.payoutPercent },
  { name: "payout_currency", cell: (o) => o.currency.code },
  { name: "payout_type", cell: (o) => o.payoutType },
  { name: "countries", cell: (o) => o.countries.join(LIST_SEPARATOR) },
  { name: "verticals", cell: (o) => o.categories.join(LIST_SEPARATOR) },
  { name: "listed_at", cell: (o) => o.createdAt },
  { name: "offer_url", cell: (o, origin) => `${origin}${offerUrl(o)}` },
  { name: "network_url", cell: (o, origin) => `${origin}/network/${o.networkId}/${o.networkSlug}` },
];

// ---------------------------------------------------------------- CSV text

/**
 * Spreadsheets run a cell starting with one of these as a formula (OWASP "CSV
 * Injection": = + - @, and tab and carriage return, which some strip first).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One field as RFC 4180 text: a value a spreadsheet would run as a formula gets a
 * leading apostrophe (shown as text, the way OWASP advises); a field holding a
 * comma, quote, CR or LF is quoted with its quotes doubled. Numbers and booleans
 * are written plainly (the changes are unsigned, so no number starts with "-").
 */
export function csvField(value: Cell): string {
  if (value === null) return "";
  if (typeof value !== "string") return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (fields: readonly Cell[]) => fields.map(csvField).join(",") + CRLF;

/** The whole file: BOM, header line, one line per offer; `origin` makes the URLs absolute. */
export function offersCsv(offers: readonly OfferListItem[], origin: string): string {
  const header = csvLine(EXPORT_COLUMNS.map((c) => c.name));
  return BOM + header + offers.map((o) => csvLine(EXPORT_COLUMNS.map((c) => c.cell(o, origin)))).join("");
}

/** `offeratlas-offers-2026-11-23.csv`, dated in UTC. */
export const exportFileName = (now: Date) => `offeratlas-offers-${now.toISOString().slice(0, 10)}.csv`;
