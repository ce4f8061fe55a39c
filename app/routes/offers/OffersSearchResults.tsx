// The results half of an offers search page: tabs, the table, the compare bar
// and pagination. Every control is a link built from the URL state.
import { Link } from "#app/ui/Link.tsx";
import {
  DEFAULT_SORT_DESC,
  OFFER_TAB_LABELS,
  RECENT_DAYS,
  offerSearchToUrl,
  type OfferSearch,
  type OfferSearchResult,
  type OfferSort,
  type OfferTab,
} from "#contracts/offers.ts";

/** What an empty recent-change view says without text or filters (else the usual "No offers match …"). */
const EMPTY_VIEW: Partial<Record<OfferTab, string>> = {
  updated: `No offers were added or changed in the last ${RECENT_DAYS} days.`,
  payoutIncreased: `No offer's payout rose in the last ${RECENT_DAYS} days.`,
};
import { CompareBar, CompareProvider } from "./compare-selection";
import { OffersTable } from "./OffersTable";
import type { WatchState } from "#contracts/watchlist.ts";
import { ExportLink } from "./ExportLink";
import { SaveSearch } from "./SaveSearch";
import { Pagination } from "#app/ui/Pagination.tsx";
import { formatNumber } from "#contracts/numbers.ts";

export function OffersSearchResults({
  state,
  result,
  action,
  tabs,
  heading,
  watch,
}: {
  state: OfferSearch;
  result: OfferSearchResult;
  /** The rows' watchlist stars (loadOfferSearch). */
  watch?: WatchState;
  /** The page path the links point at (/ or /pay-per-call-offers). */
  action: string;
  tabs: readonly OfferTab[];
  heading: string;
}) {
  const href = (change: Partial<OfferSearch>) => `${action}?${offerSearchToUrl({ ...state, ...change })}`;
  const pageCount = Math.max(1, Math.ceil(result.total / result.pageSize));
  // A heading's link flips the current order, or starts its column in its usual order.
  const nextSortDesc = (sortBy: OfferSort) =>
    state.sortBy === sortBy ? !(state.sortDesc ?? DEFAULT_SORT_DESC[sortBy]) : DEFAULT_SORT_DESC[sortBy];
  const from = (result.page - 1) * result.pageSize + 1;

  return (
    <CompareProvider>
      <section aria-labelledby="offers-heading">
        <h2 id="offers-heading" className="sr-only">
          {heading}
        </h2>
        <nav aria-label="Offer lists" className="mb-2 flex flex-wrap gap-1 border-b border-slate-200">
          {tabs.map((tab) => {
            const active = tab === state.selectedTab;
            return (
              <Link
                key={tab}
                to={href({ selectedTab: tab, page: 1, sortBy: undefined, sortDesc: undefined })}
                preventScrollReset
                aria-current={active ? "page" : undefined}
                className={`-mb-px rounded-t border px-3 py-1.5 text-sm font-medium ${active ? "border-slate-200 border-b-white bg-white text-brand-700" : "border-transparent text-slate-600 hover:text-slate-900"}`}
              >
                {OFFER_TAB_LABELS[tab]}
              </Link>
            );
          })}
        </nav>
        <p className="mb-2 text-sm text-slate-600" role="status" data-testid="results-summary">
          {result.total === 0
            ? state.query
              ? `No offers match “${state.query}”.`
              : ((!state.networks.length && !state.countries.length && !state.categories.length
                  ? EMPTY_VIEW[state.selectedTab]
                  : undefined) ?? "No offers match these filters.")
            : `${from}–${from + result.offers.length - 1} of ${formatNumber(result.total)}${result.totalCapped ? "+" : ""} offers${state.query ? ` for “${state.query}”` : ""}`}
          {result.fuzzy && <span className="ml-1">(no exact match; showing close spellings)</span>}
        </p>
        {/* Saving is worth it with no results too: its alert tells of matching offers to come. */}
        <div className="mb-2 flex justify-end">
          <SaveSearch state={state} path={action} />
        </div>
        {result.offers.length > 0 && (
          <div className="mb-2 flex justify-end">
            <ExportLink state={state} />
          </div>
        )}
        {result.offers.length > 0 && (
          <OffersTable
            offers={result.offers}
            caption={heading}
            watch={watch}
            sort={{
              href: (sortBy) => href({ sortBy, sortDesc: nextSortDesc(sortBy), page: 1 }),
              nextDesc: nextSortDesc,
              current: state.sortBy,
              desc: state.sortBy ? (state.sortDesc ?? DEFAULT_SORT_DESC[state.sortBy]) : true,
            }}
          />
        )}
        <CompareBar />
        <Pagination page={result.page} pageCount={pageCount} href={(page) => href({ page })} label="Offer pages" />
      </section>
    </CompareProvider>
  );
}
