// Home: the offers search and listing (spec §2). State lives in the URL
// (search, selectedTab, page and the filters), so a search can be bookmarked.
import { OFFER_TABS } from "#contracts/offers.ts";
import { loadOfferSearch } from "#app/components/offers/search-loader.ts";
import { OffersSearchResults } from "#app/components/offers/OffersSearchResults.tsx";
import type { Route } from "./+types/home";

export async function loader({ request, context }: Route.LoaderArgs) {
  return loadOfferSearch(request, context);
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return <OffersSearchResults state={loaderData.state} result={loaderData.result} action="/" tabs={OFFER_TABS} heading="Affiliate offers" />;
}
