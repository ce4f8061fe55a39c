// Old-site address /affiliate-networks/profile/networkId/{id}/{slug}: 301 to the
// canonical network page. The id may be the old site's (looked up first) or a
// current one; the slug is ignored. Without an id, the listing.
import { data, redirect } from "react-router";
import { requestContext } from "#app/context.ts";
import { networkPath } from "#contracts/networks.ts";
import type { Route } from "./+types/network";

export async function loader({ params, context }: Route.LoaderArgs) {
  if (!params.id) return redirect("/networks", 301);
  const { services, site } = context.get(requestContext);
  const found =
    (await services.networks.byLegacyId(site.id, params.id)) ?? (await services.networks.byId(site.id, params.id));
  // A retired network's canonical page explains that it is no longer listed (410).
  const retired = found
    ? null
    : ((await services.networks.retired({ legacyId: params.id })) ??
      (await services.networks.retired({ id: params.id })));
  if (retired) return redirect(networkPath(retired), 301);
  if (!found) throw data("Network not found", { status: 404 });
  return redirect(networkPath(found), 301);
}

// A UI route (never rendered) so an unknown id shows the site's 404 page.
export default function LegacyNetwork() {
  return null;
}
