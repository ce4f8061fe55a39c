// /networks: every network of the site in a fresh random order (docs/product.md §4),
// filtered by the search box of the layout, paged through `page` in the URL with the
// shuffle's seed (`order`), so paging shows each network once.
import { requestContext } from "#app/context.ts";
import {
  directoryMeta,
  directoryOrder,
  directoryPage,
  directorySearch,
  DirectoryListing,
} from "#app/routes/layouts/directory.tsx";
import { NETWORKS, type NetworkRow } from "./NetworksTable";
import type { Route } from "./+types/networks";

export const meta: Route.MetaFunction = directoryMeta({
  title: "Affiliate networks: ratings, reviews and offers",
  description: "Compare affiliate networks by rating, reviews, offers and payment terms, and join the ones you trust.",
  path: "/networks",
  kind: "Affiliate networks",
});

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services, site } = context.get(requestContext);
  const search = directorySearch(request);
  const order = directoryOrder(request);
  const listed = directoryPage(request, await services.networks.list(site.id, { search, order }));
  const rows: NetworkRow[] = listed.rows.map((n) => ({
    id: n.id,
    name: n.name,
    slug: n.slug,
    logoUrl: n.logoUrl,
    avgRating: n.avgRating,
    reviewCount: n.reviewCount,
    offerCount: n.offerCount,
    paymentTerms: n.paymentTerms,
    featured: n.featured,
    joiningLink: n.joiningLink,
  }));
  return { ...listed, rows, search, order };
}

export default function NetworksPage({ loaderData }: Route.ComponentProps) {
  return <DirectoryListing directory={NETWORKS} listing={loaderData} />;
}
