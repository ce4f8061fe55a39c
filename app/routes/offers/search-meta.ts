// The meta tags of the offers search pages (/ and /pay-per-call-offers), by the
// policy of docs/decisions/0025: the page indexed is a plain search (its words
// alone) or a vertical (one category alone, the offer breadcrumb's middle step);
// other tabs, sorts, filters and pages are variants.
import type { MetaDescriptor } from "react-router";
import {
  DEFAULT_SORT_DESC,
  DEFAULT_TAB,
  OFFER_TAB_LABELS,
  type OfferSearch,
  type OfferSearchResult,
} from "#contracts/offers.ts";
import { rootSeo } from "#app/lib/seo.ts";
import { capitalised, pageSuffix, searchPageMeta, type SearchAddress } from "#app/lib/search-seo.ts";
import type { FilterLists } from "./filter-lists";
import { formatNumber } from "#contracts/numbers.ts";

const ascending = (values: readonly (string | number)[]) =>
  [...values]
    .map(String)
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }))
    .join(",");

/** The normalised address of an offers search: known parameters in a fixed order, lists sorted, defaults left out. */
export function offerSearchAddress(path: string, s: OfferSearch): SearchAddress {
  const desc = s.sortBy && s.sortDesc !== undefined && s.sortDesc !== DEFAULT_SORT_DESC[s.sortBy];
  const params: SearchAddress["params"] = [
    ["search", s.query],
    ["categories", ascending(s.categories)],
    ["networks", ascending(s.networks)],
    ["countries", ascending(s.countries)],
    ["selectedTab", s.selectedTab === DEFAULT_TAB ? undefined : s.selectedTab],
    ["sortBy", s.sortBy],
    ["sortDesc", desc ? String(s.sortDesc) : undefined],
    ["page", s.page > 1 ? String(s.page) : undefined],
  ];
  const given = params.filter(([, v]) => v).map(([name]) => name);
  const plain = given.length === 0 || (given.length === 1 && given[0] === "search");
  const vertical = given.length === 1 && given[0] === "categories" && s.categories.length === 1;
  return { path, params, indexable: plain || vertical };
}

type SearchPage = {
  path: string;
  /** What the page lists: "affiliate offers", "pay-per-call offers". */
  kind: string;
  /** Title and description of the page with no search. */
  title: string;
  description: string;
};

type MetaArgs = {
  loaderData: { state: OfferSearch; result: OfferSearchResult } | undefined;
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>;
};

/** The meta export of an offers search page: the title and description name the search or the vertical. */
export function offerSearchMeta(page: SearchPage) {
  return ({ loaderData, matches }: MetaArgs): MetaDescriptor[] => {
    // The search as the loader read it (the browser never parses the address: docs/decisions/0033).
    // Without it (the results failed) the page is a variant of the plain one.
    if (!loaderData) return searchPageMeta(rootSeo(matches), { path: page.path, params: [], indexable: false }, page);
    const { state, result } = loaderData;
    const lists = matches.find((m) => m?.id === "routes/offers/search-layout")?.loaderData as
      { filterLists?: FilterLists } | undefined;
    const vertical =
      state.categories.length === 1
        ? lists?.filterLists?.categories.options.find((o) => o.value === String(state.categories[0]))?.label
        : undefined;
    const subject = state.query || vertical;
    const tab = state.selectedTab === DEFAULT_TAB ? "" : ` – ${OFFER_TAB_LABELS[state.selectedTab]}`;
    const count = `${formatNumber(result.total)}${result.totalCapped ? "+" : ""} `;
    return searchPageMeta(rootSeo(matches), offerSearchAddress(page.path, state), {
      title: `${subject ? `${capitalised(subject)} ${page.kind}` : page.title}${tab}${pageSuffix(state.page)}`,
      description: subject
        ? `Compare ${count}${subject} ${page.kind} across networks: who pays most, for which action, in which geos.`
        : page.description,
    });
  };
}
