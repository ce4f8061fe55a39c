// The one loader behind every offers search page (/ and /pay-per-call-offers):
// state from the URL, the search through the core service, the search logged.
import { offerSearchFromUrl } from "#contracts/offers.ts";
import { requestContext } from "#app/context.ts";
import type { RouterContextProvider } from "react-router";

export async function loadOfferSearch(
  request: Request,
  context: Readonly<RouterContextProvider>,
  fixed: { ppc?: boolean } = {},
) {
  const { services, site, clientIp, user } = context.get(requestContext);
  const state = offerSearchFromUrl(new URL(request.url).searchParams, fixed);
  const result = await services.offers.search(state, { siteId: site.id, clientIp });
  // Signed out: the one shared star state, so the anonymous page stays cacheable.
  const watch = await services.watchlist.stateFor(user, { offerIds: result.offers.map((o) => o.id) });
  return { state, result, watch };
}
