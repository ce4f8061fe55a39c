// Layout: general search bar with top ads and sidebar — the offers search header (docs/product.md §2):
// title, search box (500 ms debounce), the 'Filters' list, 'Clear Searches' and 'Clear Filters'.
import { Outlet, useLocation, useMatches, useSearchParams } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { offerSearchFromUrl, offerSearchToUrl, normalizeOfferQuery, type OfferSearch } from "#contracts/offers.ts";
import { requestContext } from "#app/context.ts";
import { revalidateWhen } from "#app/lib/revalidate.ts";
import { SearchBarAd, TopAds } from "#app/ui/ads/AdRegions.tsx";
import { SearchBox } from "#app/ui/shell/SearchBox.tsx";
import { WithSidebar } from "#app/ui/shell/WithSidebar.tsx";
import { FeaturedNetworksBox } from "./FeaturedNetworks";
import { OfferFilters } from "./OfferFilters";
import { pageLists } from "./filter-lists";
import type { Route } from "./+types/search-layout";

export const OFFERS_SEARCH_TITLE = "Enter a search term below to find and compare offers";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services, site } = context.get(requestContext);
  const params = new URL(request.url).searchParams;
  const search = offerSearchFromUrl(params);
  const filterLists = pageLists(await services.offers.filterOptions(), search, params.get("show"));
  return { search, filterLists, featuredNetworks: await services.offers.featuredNetworks(site.id) };
}

/**
 * The search as the server read it from the address: the results' loader reads it
 * on every search, this layout's only when the page changes (the results' own
 * error leaves the layout's). The browser never reads the address itself, so the
 * URL reader and zod stay off these pages (docs/decisions/0033).
 */
function useServerSearch(layout: OfferSearch): OfferSearch {
  const results = useMatches().at(-1)?.loaderData as { state?: OfferSearch } | undefined;
  return results?.state ?? layout;
}

// The filter lists and the sidebar do not depend on the search: typing, ticking
// filters and paging reload only the results.
export const shouldRevalidate = revalidateWhen(({ currentUrl, nextUrl, formMethod }) =>
  !formMethod || formMethod === "GET" ? currentUrl.pathname !== nextUrl.pathname : undefined,
);

export default function OffersSearchLayout({ loaderData }: Route.ComponentProps) {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const state = useServerSearch(loaderData.search);
  const clearSearch = `${pathname}?${offerSearchToUrl({ ...state, query: "", page: 1 })}`;
  const clearFilters = `${pathname}?${offerSearchToUrl({ ...state, networks: [], countries: [], categories: [], page: 1 })}`;
  return (
    <>
      <TopAds />
      <section
        className="container-oa mt-3 grid items-start gap-4 rounded-md bg-white p-4 shadow-sm md:grid-cols-[minmax(0,1fr)_auto]"
        aria-labelledby="offers-search-title"
      >
        <div>
          <h1 id="offers-search-title" className="mb-3 text-lg font-semibold">
            {OFFERS_SEARCH_TITLE}
          </h1>
          <SearchBox
            action={pathname}
            label="Search offers"
            placeholder="Offer name, vertical, network…"
            normalize={normalizeOfferQuery}
          />
          <OfferFilters lists={loaderData.filterLists} state={state} action={pathname} showAll={params.get("show")} />
          <div className="mt-2 flex gap-4 text-sm">
            <Link to={clearSearch} className="link" preventScrollReset>
              Clear Searches
            </Link>
            <Link to={clearFilters} className="link" preventScrollReset>
              Clear Filters
            </Link>
          </div>
        </div>
        <div className="hidden md:block">
          <SearchBarAd />
        </div>
      </section>
      <WithSidebar sidebar={<FeaturedNetworksBox networks={loaderData.featuredNetworks} />}>
        <Outlet />
      </WithSidebar>
    </>
  );
}
