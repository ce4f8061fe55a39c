// Layout: general search bar with top ads and sidebar — the offers search header (spec §2).
import { Link, Outlet, useLocation, useSearchParams } from "react-router";
import { SearchBarAd, TopAds } from "#app/components/ads/AdRegions.tsx";
import { SearchBox } from "#app/components/shell/SearchBox.tsx";
import { WithSidebar } from "#app/components/shell/WithSidebar.tsx";

export const OFFERS_SEARCH_TITLE = "Enter a search term below to find and compare offers";

export default function OffersSearchLayout() {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const clearSearch = new URLSearchParams(params);
  clearSearch.set("search", "");
  clearSearch.set("page", "1");
  return (
    <>
      <TopAds />
      <section className="container-oa mt-3 grid items-start gap-4 rounded-md bg-white p-4 shadow-sm md:grid-cols-[minmax(0,1fr)_auto]" aria-labelledby="offers-search-title">
        <div>
          <h1 id="offers-search-title" className="mb-3 text-lg font-semibold">{OFFERS_SEARCH_TITLE}</h1>
          <SearchBox action={pathname} label="Search offers" placeholder="Offer name, vertical, network…" />
          <div className="mt-2 flex gap-4 text-sm">
            <Link to={`${pathname}?${clearSearch.toString()}`} className="link" preventScrollReset>Clear Searches</Link>
          </div>
        </div>
        <div className="hidden md:block"><SearchBarAd /></div>
      </section>
      <WithSidebar><Outlet /></WithSidebar>
    </>
  );
}
