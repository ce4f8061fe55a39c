// Home: the offers search and listing (docs/product.md §2). State lives in the URL
// (search, selectedTab, page and the filters), so a search can be bookmarked.
import { OFFER_TABS } from "#contracts/offers.ts";
import { loadOfferSearch } from "./search.server";
import { OffersSearchResults } from "./OffersSearchResults";
import type { Route } from "./+types/home";
import { offerSearchMeta } from "./search-meta";

export const meta: Route.MetaFunction = offerSearchMeta({
  path: "/",
  kind: "affiliate offers",
  title: "The highest-paying affiliate programs and offers",
  description:
    "Search and compare affiliate offers across networks: who pays most for what, in which geos. Network ratings, reviews and traffic sources.",
});

export async function loader({ request, context }: Route.LoaderArgs) {
  return loadOfferSearch(request, context);
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return <OffersSearchResults {...loaderData} action="/" tabs={OFFER_TABS} heading="Affiliate offers" />;
}
