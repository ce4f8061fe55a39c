// The 'Filters' list of the offers search header: Networks, Categories and
// Countries. A GET form, so it works without JavaScript ("Apply filters");
// with JavaScript each tick updates the URL (and the results) at once.
import { useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { offerSearchToUrl, type OfferSearch } from "#contracts/offers.ts";
import type { FilterOptions } from "#core/offers/catalog.ts";
import { MultiSelect } from "./MultiSelect";

type ListKey = "networks" | "countries" | "categories";

export function OfferFilters({ options, state, action, showAll }: {
  options: FilterOptions;
  state: OfferSearch;
  action: string;
  /** The list shown whole without JavaScript (`show` in the URL). */
  showAll: string | null;
}) {
  const navigate = useNavigate();
  const [hydrated, setHydrated] = useState(false);
  // eslint-disable-next-line react-hooks/set-state-in-effect
  useEffect(() => setHydrated(true), []);

  const apply = (key: ListKey, values: string[]) => {
    const next = { ...state, page: 1, [key]: key === "countries" ? values : values.map(Number) };
    navigate(`${action}?${offerSearchToUrl(next)}`, { preventScrollReset: true });
  };

  const list = (key: ListKey) => ({ showAll: showAll === key, showAllHref: `${action}?${offerSearchToUrl(state)}&show=${key}#filters-title` });

  return (
    <form method="get" action={action} aria-labelledby="filters-title" className="mt-3">
      <input type="hidden" name="selectedTab" value={state.selectedTab} />
      <input type="hidden" name="search" value={state.query} />
      <input type="hidden" name="page" value="1" />
      {state.sortBy && <input type="hidden" name="sortBy" value={state.sortBy} />}
      {state.sortBy && state.sortDesc !== undefined && <input type="hidden" name="sortDesc" value={String(state.sortDesc)} />}
      <h2 id="filters-title" className="mb-1 text-sm font-semibold text-slate-700">Filters</h2>
      <ul className="flex flex-wrap items-end gap-3">
        <li>
          <span className="mb-0.5 block text-xs font-medium text-slate-600" aria-hidden="true">Networks</span>
          <MultiSelect {...list("networks")} label="Networks" name="networks" placeholder="All networks"
            options={options.networks.map((n) => ({ value: String(n.id), label: n.name }))}
            selected={state.networks.map(String)} onChange={(v) => apply("networks", v)} />
        </li>
        <li>
          <span className="mb-0.5 block text-xs font-medium text-slate-600" aria-hidden="true">Categories</span>
          <MultiSelect {...list("categories")} label="Categories" name="categories" placeholder="All categories"
            options={options.categories.map((c) => ({ value: String(c.id), label: c.name }))}
            selected={state.categories.map(String)} onChange={(v) => apply("categories", v)} />
        </li>
        <li>
          <span className="mb-0.5 block text-xs font-medium text-slate-600" aria-hidden="true">Countries</span>
          <MultiSelect {...list("countries")} label="Countries" name="countries" placeholder="All countries"
            options={options.countries.map((c) => ({ value: c.code, label: c.name }))}
            selected={state.countries} onChange={(v) => apply("countries", v)} />
        </li>
        {!hydrated && (
          <li><button type="submit" className="btn-secondary h-[34px] py-0">Apply filters</button></li>
        )}
      </ul>
    </form>
  );
}
