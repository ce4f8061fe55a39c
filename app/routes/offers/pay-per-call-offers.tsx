// /pay-per-call-offers: the offers search fixed to pay-per-call offers (ppc=true).
import { OFFER_TABS } from "#contracts/offers.ts";
import { loadOfferSearch } from "./search.server";
import { OffersSearchResults } from "./OffersSearchResults";
import type { Route } from "./+types/pay-per-call-offers";
import { offerSearchMeta } from "./search-meta";

export const meta: Route.MetaFunction = offerSearchMeta({
  path: "/pay-per-call-offers",
  kind: "pay-per-call offers",
  title: "Pay-per-call offers",
  description: "Search and compare pay-per-call affiliate offers: payouts per qualified inbound call across networks.",
});

export async function loader({ request, context }: Route.LoaderArgs) {
  return loadOfferSearch(request, context, { ppc: true });
}

// Every list here is already pay-per-call, so that tab would repeat Top Offers.
const TABS = OFFER_TABS.filter((t) => t !== "payPerCall");

export default function Page({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <h2 className="mb-2 text-xl font-semibold">Pay-per-call offers</h2>
      <OffersSearchResults {...loaderData} action="/pay-per-call-offers" tabs={TABS} heading="Pay-per-call offers" />
    </>
  );
}
