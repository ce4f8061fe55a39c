// /traffic-sources: featured traffic sources first, each group shuffled (docs/product.md §4),
// filtered by the layout's search box, paged through `page` with the shuffle's seed (`order`).
import { requestContext } from "#app/context.ts";
import {
  directoryMeta,
  directoryOrder,
  directoryPage,
  directorySearch,
  DirectoryListing,
} from "#app/routes/layouts/directory.tsx";
import { TRAFFIC_SOURCES, type TrafficSourceRow } from "./TrafficSourcesTable";
import type { Route } from "./+types/traffic-sources";

export const meta: Route.MetaFunction = directoryMeta({
  title: "Traffic sources for affiliates",
  description: "Find traffic sources by ad format, pricing model, minimum deposit and geos.",
  path: "/traffic-sources",
  kind: "Traffic sources",
});

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  const search = directorySearch(request);
  const order = directoryOrder(request);
  const listed = directoryPage(request, await services.trafficSources.list({ search, order }));
  const rows: TrafficSourceRow[] = listed.rows.map((s) => ({
    id: s.id,
    name: s.name,
    logoUrl: s.logoUrl,
    featured: s.featured,
    adFormats: s.adFormats,
    pricingModels: s.pricingModels,
    minimumDeposit: s.minimumDeposit,
    geoCount: s.geos.length,
  }));
  return { ...listed, rows, search, order };
}

export default function TrafficSourcesPage({ loaderData }: Route.ComponentProps) {
  return <DirectoryListing directory={TRAFFIC_SOURCES} listing={loaderData} />;
}
