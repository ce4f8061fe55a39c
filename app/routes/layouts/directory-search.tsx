// Layout: network search bar with top ads and sidebar — for networks and traffic sources (docs/product.md §2).
import { Outlet, useLocation, useSearchParams } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { TopAds } from "#app/ui/ads/AdRegions.tsx";
import { SearchBox } from "#app/ui/shell/SearchBox.tsx";
import { WithSidebar } from "#app/ui/shell/WithSidebar.tsx";

export const DIRECTORY_TITLES = {
  "/networks": "Enter a search term below to find networks",
  "/traffic-sources": "Enter a search term below to find traffic sources",
} as const;

export default function DirectorySearchLayout() {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const title = DIRECTORY_TITLES[pathname as keyof typeof DIRECTORY_TITLES] ?? DIRECTORY_TITLES["/networks"];
  const clear = new URLSearchParams(params);
  clear.set("search", "");
  clear.set("page", "1");
  return (
    <>
      <TopAds />
      <section className="container-oa mt-3 rounded-md bg-white p-4 shadow-sm" aria-labelledby="directory-search-title">
        <h1 id="directory-search-title" className="mb-3 text-lg font-semibold">
          {title}
        </h1>
        <SearchBox action={pathname} label={title} placeholder="Name…" />
        <div className="mt-2 text-sm">
          <Link to={`${pathname}?${clear.toString()}`} className="link" preventScrollReset>
            Clear Searches
          </Link>
        </div>
      </section>
      <WithSidebar>
        <Outlet />
      </WithSidebar>
    </>
  );
}
