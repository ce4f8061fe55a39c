// /networks: every network of the site in a fresh random order (spec §4),
// filtered by the search box of the layout, paged through `page` in the URL.
import { useSearchParams, type ShouldRevalidateFunctionArgs } from "react-router";
import { requestContext } from "#app/context.ts";
import { NETWORKS_PAGE_SIZE } from "#contracts/networks.ts";
import { NetworksTable, type NetworkRow } from "#app/components/networks/NetworksTable.tsx";
import { Pagination } from "#app/components/offers/Pagination.tsx";
import type { Route } from "./+types/networks";
import { pageMeta, rootSeo } from "#app/lib/seo.ts";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(rootSeo(matches), {
    title: "Affiliate networks: ratings, reviews and offers",
    description: "Compare affiliate networks by rating, reviews, offers and payment terms, and join the ones you trust.",
    path: "/networks",
  });

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services, site } = context.get(requestContext);
  const search = (new URL(request.url).searchParams.get("search") ?? "").slice(0, 200);
  const networks = await services.networks.list(site.id, { search });
  const rows: NetworkRow[] = networks.map((n) => ({
    id: n.id, name: n.name, slug: n.slug, logoUrl: n.logoUrl, avgRating: n.avgRating, reviewCount: n.reviewCount,
    offerCount: n.offerCount, paymentTerms: n.paymentTerms, featured: n.featured, joiningLink: n.joiningLink,
  }));
  return { search, networks: rows };
}

// The whole shuffled list is loaded once per search, and pages are cut from it
// here: paging does not reshuffle, so no network shows on two pages.
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  const sameSearch = (currentUrl.searchParams.get("search") ?? "") === (nextUrl.searchParams.get("search") ?? "");
  if (!formMethod && currentUrl.pathname === nextUrl.pathname && sameSearch) return false;
  return defaultShouldRevalidate;
}

export const pageFrom = (params: URLSearchParams, pageCount: number) => {
  const n = Number(params.get("page"));
  return Number.isInteger(n) && n >= 1 ? Math.min(n, pageCount) : 1;
};

export default function NetworksPage({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const { networks, search } = loaderData;
  const pageCount = Math.max(1, Math.ceil(networks.length / NETWORKS_PAGE_SIZE));
  const page = pageFrom(params, pageCount);
  const shown = networks.slice((page - 1) * NETWORKS_PAGE_SIZE, page * NETWORKS_PAGE_SIZE);
  const href = (p: number) => {
    const next = new URLSearchParams(params);
    next.set("search", search);
    next.set("page", String(p));
    return `/networks?${next.toString()}`;
  };
  return (
    <section aria-labelledby="networks-heading">
      <h2 id="networks-heading" className="mb-2 text-base font-semibold">
        Affiliate networks <span className="text-sm font-normal text-slate-600">({networks.length})</span>
      </h2>
      {networks.length === 0 ? (
        <p className="card text-sm" role="status">No networks match “{search}”.</p>
      ) : (
        <>
          <NetworksTable networks={shown} />
          <Pagination page={page} pageCount={pageCount} href={href} label="Networks pages" />
        </>
      )}
    </section>
  );
}
