// /traffic-sources: featured traffic sources first, each group shuffled (spec §4),
// filtered by the layout's search box, paged through `page` in the URL.
import { useSearchParams, type ShouldRevalidateFunctionArgs } from "react-router";
import { requestContext } from "#app/context.ts";
import { NETWORKS_PAGE_SIZE } from "#contracts/networks.ts";
import { TrafficSourcesTable, type TrafficSourceRow } from "#app/components/traffic-sources/TrafficSourcesTable.tsx";
import { Pagination } from "#app/components/offers/Pagination.tsx";
import { pageFrom } from "./networks";
import type { Route } from "./+types/traffic-sources";
import { pageMeta, rootSeo } from "#app/lib/seo.ts";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(rootSeo(matches), {
    title: "Traffic sources for affiliates",
    description: "Find traffic sources by ad format, pricing model, minimum deposit and geos.",
    path: "/traffic-sources",
  });

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  const search = (new URL(request.url).searchParams.get("search") ?? "").slice(0, 200);
  const sources = await services.trafficSources.list({ search });
  const rows: TrafficSourceRow[] = sources.map((s) => ({
    id: s.id, name: s.name, logoUrl: s.logoUrl, featured: s.featured, adFormats: s.adFormats,
    pricingModels: s.pricingModels, minimumDeposit: s.minimumDeposit, geoCount: s.geos.length,
  }));
  return { search, trafficSources: rows };
}

// Pages are cut from the list loaded for this search: paging does not reshuffle.
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  const sameSearch = (currentUrl.searchParams.get("search") ?? "") === (nextUrl.searchParams.get("search") ?? "");
  if (!formMethod && currentUrl.pathname === nextUrl.pathname && sameSearch) return false;
  return defaultShouldRevalidate;
}

export default function TrafficSourcesPage({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const { trafficSources, search } = loaderData;
  const pageCount = Math.max(1, Math.ceil(trafficSources.length / NETWORKS_PAGE_SIZE));
  const page = pageFrom(params, pageCount);
  const shown = trafficSources.slice((page - 1) * NETWORKS_PAGE_SIZE, page * NETWORKS_PAGE_SIZE);
  const href = (p: number) => {
    const next = new URLSearchParams(params);
    next.set("search", search);
    next.set("page", String(p));
    return `/traffic-sources?${next.toString()}`;
  };
  return (
    <section aria-labelledby="traffic-sources-heading">
      <h2 id="traffic-sources-heading" className="mb-2 text-base font-semibold">
        Traffic sources <span className="text-sm font-normal text-slate-600">({trafficSources.length})</span>
      </h2>
      {trafficSources.length === 0 ? (
        <p className="card text-sm" role="status">No traffic sources match “{search}”.</p>
      ) : (
        <>
          <TrafficSourcesTable trafficSources={shown} />
          <Pagination page={page} pageCount={pageCount} href={href} label="Traffic sources pages" />
        </>
      )}
    </section>
  );
}
