// Old-site address /affiliate-offers/details/offerId/{id}/{slug}: one 301 to the
// canonical offer page. The id is the old site's (looked up first) or a current one;
// the slug is ignored. A retired offer's canonical page answers 410; without an id,
// the search.
import { data, redirect } from "react-router";
import { requestContext } from "#app/context.ts";
import { offerUrl } from "#contracts/offers.ts";
import type { Route } from "./+types/offer";

export async function loader({ params, context }: Route.LoaderArgs) {
  if (!params.id) return redirect("/", 301);
  const { services, site } = context.get(requestContext);
  const found =
    (await services.offers.lookup(site.id, { legacyId: params.id })) ??
    (await services.offers.lookup(site.id, { id: params.id }));
  if (!found) throw data("Offer not found", { status: 404 });
  return redirect(offerUrl(found), 301);
}

// A UI route (never rendered) so an unknown id shows the site's 404 page.
export default function LegacyOffer() {
  return null;
}
