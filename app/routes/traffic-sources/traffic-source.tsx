// Traffic source detail: /traffic-sources/details/{id}.
import { data } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { requestContext } from "#app/context.ts";
import { isWebUrl } from "#app/lib/web-url.ts";
import { FeaturedBadge } from "#app/ui/FeaturedBadge.tsx";
import { NetworkLogo } from "#app/ui/NetworkLogo.tsx";
import { NoLongerListed } from "#app/ui/NoLongerListed.tsx";
import { depositText } from "./TrafficSourcesTable";
import type { Route } from "./+types/traffic-source";
import { pageMeta, rootSeo, unlistedPageMeta } from "#app/lib/seo.ts";

export async function loader({ params, context }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  const trafficSource = await services.trafficSources.byId(params.id);
  if (!trafficSource) {
    // An old link to a retired traffic source explains itself (410) instead of a bare 404.
    const retired = await services.trafficSources.retired({ id: params.id });
    if (retired) return data({ retired }, { status: 410 });
    throw data("Traffic source not found", { status: 404 });
  }
  return { trafficSource };
}

export const meta: Route.MetaFunction = ({ loaderData, matches, location }) =>
  loaderData && "retired" in loaderData
    ? unlistedPageMeta(
        { matches, location },
        {
          title: `${loaderData.retired.name} is no longer listed`,
          description: `${loaderData.retired.name} is no longer listed: this traffic source was removed from the directory.`,
        },
      )
    : loaderData
      ? pageMeta(rootSeo(matches), {
          title: `${loaderData.trafficSource.name}: traffic source details`,
          description: loaderData.trafficSource.description,
          path: `/traffic-sources/details/${loaderData.trafficSource.id}`,
        })
      : [{ title: "Traffic source | OfferAtlas" }];

export default function TrafficSourcePage({ loaderData }: Route.ComponentProps) {
  if ("retired" in loaderData)
    return (
      <NoLongerListed
        name={loaderData.retired.name}
        kind="traffic source"
        to={{ href: "/traffic-sources", label: "Browse listed traffic sources" }}
      />
    );
  const s = loaderData.trafficSource;
  return (
    <article className="card flex flex-col gap-4" aria-labelledby="traffic-source-name">
      <nav className="text-sm">
        <Link to="/traffic-sources" className="link">
          ← All traffic sources
        </Link>
      </nav>
      <header className="flex items-center gap-3">
        <NetworkLogo name={s.name} logoUrl={s.logoUrl} size={56} />
        <h1 id="traffic-source-name" className="text-2xl font-semibold">
          {s.name}
        </h1>
        {s.featured && <FeaturedBadge />}
        {isWebUrl(s.website) && (
          <a href={s.website} target="_blank" rel="noopener sponsored" className="btn-primary ml-auto">
            Visit website
          </a>
        )}
      </header>
      <p className="text-slate-800">{s.description}</p>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[10rem_1fr]">
        <dt className="font-medium text-slate-600">Ad formats</dt>
        <dd>{s.adFormats.join(", ") || "—"}</dd>
        <dt className="font-medium text-slate-600">Pricing models</dt>
        <dd>{s.pricingModels.join(", ") || "—"}</dd>
        <dt className="font-medium text-slate-600">Minimum deposit</dt>
        <dd>{depositText(s.minimumDeposit)}</dd>
        <dt className="font-medium text-slate-600">Geos</dt>
        <dd title={s.geos.join(", ")}>
          {s.geos.length > 20 ? `${s.geos.length} countries` : s.geos.join(", ") || "—"}
        </dd>
      </dl>
    </article>
  );
}
