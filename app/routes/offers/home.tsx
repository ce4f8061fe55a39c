// Home: the offers search and listing (docs/product.md §2). State lives in the URL
// (search, selectedTab, page and the filters), so a search can be bookmarked.
import { OFFER_TABS } from "#contracts/offers.ts";
import { loadOfferSearch } from "./search.server";
import { OffersSearchResults } from "./OffersSearchResults";
import type { Route } from "./+types/home";
import { pageMeta, rootSeo } from "#app/lib/seo.ts";

export const meta: Route.MetaFunction = ({ matches, location }) =>
  pageMeta(rootSeo(matches), {
    title: "The highest-paying affiliate programs and offers",
    description:
      "Search and compare affiliate offers across networks: who pays most for what, in which geos. Network ratings, reviews and traffic sources.",
    // A search result page is its own page; the plain home page is "/".
    path: location.search && new URLSearchParams(location.search).get("search") ? `/${location.search}` : "/",
  });

export async function loader({ request, context }: Route.LoaderArgs) {
  return loadOfferSearch(request, context);
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return <OffersSearchResults {...loaderData} action="/" tabs={OFFER_TABS} heading="Affiliate offers" />;
}
