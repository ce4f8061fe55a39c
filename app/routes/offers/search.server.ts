// The one loader behind every offers search page (/ and /pay-per-call-offers):
// state from the URL, the search through the core service, the search logged.
import { offerSearchFromUrl } from "#contracts/offers.ts";
import { requestContext, watchViewer } from "#app/context.ts";
import type { RouterContextProvider } from "react-router";

export async function loadOfferSearch(
  request: Request,
  context: Readonly<RouterContextProvider>,
  fixed: { ppc?: boolean } = {},
) {
  const page = context.get(requestContext);
  const { services, site, clientIp } = page;
  const state = offerSearchFromUrl(new URL(request.url).searchParams, fixed);
  const result = await services.offers.search(state, { siteId: site.id, clientIp });
  // Signed out or in the shared signed-in page: a star state the same for all, so the page stays cacheable.
  const watch = await services.watchlist.stateFor(watchViewer(page), { offerIds: result.offers.map((o) => o.id) });
  return { state, result, watch };
}
