// Old-site address /traffic/details/id/{id}: 301 to the canonical page. The id
// may be the old site's (looked up first) or a current one; without one, the listing.
import { data, redirect } from "react-router";
import { requestContext } from "#app/context.ts";
import type { Route } from "./+types/traffic-source";

export async function loader({ params, context }: Route.LoaderArgs) {
  if (!params.id) return redirect("/traffic-sources", 301);
  const { services } = context.get(requestContext);
  const found =
    (await services.trafficSources.byLegacyId(params.id)) ?? (await services.trafficSources.byId(params.id));
  // A retired traffic source's canonical page explains that it is no longer listed (410).
  const retired = found
    ? null
    : ((await services.trafficSources.retired({ legacyId: params.id })) ??
      (await services.trafficSources.retired({ id: params.id })));
  if (retired) return redirect(`/traffic-sources/details/${retired.id}`, 301);
  if (!found) throw data("Traffic source not found", { status: 404 });
  return redirect(`/traffic-sources/details/${found.id}`, 301);
}

// A UI route (never rendered) so an unknown id shows the site's 404 page.
export default function LegacyTrafficSource() {
  return null;
}
