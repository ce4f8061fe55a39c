// /networks: every network of the site in a fresh random order (docs/product.md §4),
// filtered by the search box of the layout, paged through `page` in the URL.
import { requestContext } from "#app/context.ts";
import { fixedPageMeta } from "#app/lib/seo.ts";
import { directorySearch, DirectoryListing } from "#app/routes/layouts/directory.tsx";
import { NETWORKS, type NetworkRow } from "./NetworksTable";
import type { Route } from "./+types/networks";

export { shouldRevalidate } from "#app/routes/layouts/directory.tsx";

export const meta: Route.MetaFunction = fixedPageMeta({
  title: "Affiliate networks: ratings, reviews and offers",
  description: "Compare affiliate networks by rating, reviews, offers and payment terms, and join the ones you trust.",
  path: "/networks",
});

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services, site } = context.get(requestContext);
  const search = directorySearch(request);
  const networks = await services.networks.list(site.id, { search });
  const rows: NetworkRow[] = networks.map((n) => ({
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
  return { search, networks: rows };
}

export default function NetworksPage({ loaderData: { networks, search } }: Route.ComponentProps) {
  return <DirectoryListing directory={NETWORKS} rows={networks} search={search} />;
}
