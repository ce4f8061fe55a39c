// The 'Filters' list of the offers search header: Networks, Categories and
// Countries. A GET form, so it works without JavaScript ("Apply filters");
// with JavaScript each tick updates the URL (and the results) at once.
import { useEffect, useState } from "react";
import { useNavigate, useNavigation } from "react-router";
import { offerSearchToUrl, type OfferSearch } from "#contracts/offers.ts";
import { MultiSelect } from "#app/ui/MultiSelect.tsx";
import { loadAllLists, type FilterLists, type ListKey } from "./filter-lists";

// The three lists, in the order the header shows them.
const FILTERS: { key: ListKey; label: string; placeholder: string }[] = [
  { key: "networks", label: "Networks", placeholder: "All networks" },
  { key: "categories", label: "Categories", placeholder: "All categories" },
  { key: "countries", label: "Countries", placeholder: "All countries" },
];

export function OfferFilters({
  lists,
  state,
  action,
  showAll,
}: {
  lists: FilterLists;
  state: OfferSearch;
  action: string;
  /** The list shown whole without JavaScript (`show` in the URL). */
  showAll: string | null;
}) {
  const navigate = useNavigate();
  const [hydrated, setHydrated] = useState(false);
  // eslint-disable-next-line react-hooks/set-state-in-effect
  useEffect(() => setHydrated(true), []);

  // A tick builds on the search the last tick asked for while its results are still
  // loading, or the second of two fast ticks (a country, then a network) would drop
  // the first. `flushSync` renders the pending navigation before the next tick.
  const [asked, setAsked] = useState<{ href: string; search: OfferSearch } | null>(null);
  const pending = useNavigation().location;
  const intended = pending && `${pending.pathname}${pending.search}` === asked?.href ? asked.search : state;

  const apply = (key: ListKey, values: string[]) => {
    const search = { ...intended, page: 1, [key]: key === "countries" ? values : values.map(Number) };
    const href = `${action}?${offerSearchToUrl(search)}`;
    setAsked({ href, search });
    navigate(href, { preventScrollReset: true, flushSync: true });
  };

  const list = (key: ListKey) => ({
    name: key,
    list: lists[key],
    loadAll: async () => (await loadAllLists())[key],
    onChange: (values: string[]) => apply(key, values),
    showAll: showAll === key,
    showAllHref: `${action}?${offerSearchToUrl(state)}&show=${key}#filters-title`,
    selected: intended[key].map(String),
  });

  return (
    <form method="get" action={action} aria-labelledby="filters-title" className="mt-3">
      <input type="hidden" name="selectedTab" value={state.selectedTab} />
      <input type="hidden" name="search" value={state.query} />
      <input type="hidden" name="page" value="1" />
      {state.sortBy && <input type="hidden" name="sortBy" value={state.sortBy} />}
      {state.sortBy && state.sortDesc !== undefined && (
        <input type="hidden" name="sortDesc" value={String(state.sortDesc)} />
      )}
      <h2 id="filters-title" className="mb-1 text-sm font-semibold text-slate-700">
        Filters
      </h2>
      <ul className="flex flex-wrap items-end gap-3">
        {FILTERS.map(({ key, label, placeholder }) => (
          <li key={key}>
            <span className="mb-0.5 block text-xs font-medium text-slate-600" aria-hidden="true">
              {label}
            </span>
            <MultiSelect {...list(key)} label={label} placeholder={placeholder} />
          </li>
        ))}
        {!hydrated && (
          <li>
            <button type="submit" className="btn-secondary h-[34px] py-0">
              Apply filters
            </button>
          </li>
        )}
      </ul>
    </form>
  );
}
