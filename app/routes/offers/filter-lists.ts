// The filter lists (networks, categories, countries) as dropdown options. The
// lists are long, so a page carries only each list's ticked options and its
// length; the whole lists come from GET /api/offer-filters when a dropdown
// first opens (one request for all three, reused for the rest of the visit).
import type { FilterOptions, OfferSearch } from "#contracts/offers.ts";
import type { FilterList, Option } from "#app/ui/MultiSelect.tsx";

export type ListKey = "networks" | "categories" | "countries";
export type FilterLists = Record<ListKey, FilterList>;

const LIST_KEYS: readonly ListKey[] = ["networks", "categories", "countries"];

function toOptions(all: FilterOptions): Record<ListKey, Option[]> {
  return {
    networks: all.networks.map((n) => ({ value: String(n.id), label: n.name })),
    categories: all.categories.map((c) => ({ value: String(c.id), label: c.name })),
    countries: all.countries.map((c) => ({ value: c.code, label: c.name })),
  };
}

/** What a page carries: each list's ticked options, or one whole list (`show`: the form without JavaScript). */
export function pageLists(all: FilterOptions, state: OfferSearch, show: string | null): FilterLists {
  const options = toOptions(all);
  const lists = {} as FilterLists;
  for (const key of LIST_KEYS) {
    const ticked = new Set<string>(state[key].map(String));
    lists[key] = {
      count: options[key].length,
      options: show === key ? options[key] : options[key].filter((o) => ticked.has(o.value)),
    };
  }
  return lists;
}

let loading: Promise<Record<ListKey, Option[]>> | undefined;

/** Every option of every list, fetched once. */
export function loadAllLists(): Promise<Record<ListKey, Option[]>> {
  loading ??= fetch("/api/offer-filters", { headers: { accept: "application/json" } }).then(async (res) => {
    if (!res.ok) throw new Error(`offer filters: HTTP ${res.status}`);
    return toOptions((await res.json()) as FilterOptions);
  });
  loading.catch(() => (loading = undefined)); // a failed load is tried again on the next opening
  return loading;
}
