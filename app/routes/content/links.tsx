// /links (docs/product.md §2, §7 GET /api/links): the sitemap-style page listing every
// network, traffic source and offer of the site, a page at a time, so people
// and crawlers reach every listing through plain links.
import { data } from "react-router";
import { requestContext } from "#app/context.ts";
import { LinkList } from "./LinkList";
import { Pagination } from "#app/ui/Pagination.tsx";
import { breadcrumbs, pageMeta } from "#app/lib/seo.ts";
import type { Route } from "./+types/links";
import { formatNumber } from "#contracts/numbers.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services, site } = context.get(requestContext);
  const raw = new URL(request.url).searchParams.get("page");
  const page = raw === null || raw === "" ? 1 : Number(raw);
  if (!Number.isSafeInteger(page) || page < 1) throw data("Not found", { status: 404 });
  const links = await services.seo.links(site.id, page);
  if (page > links.totalPages) throw data("Not found", { status: 404 });
  return { links, seo: { origin: services.seo.origin(site), siteName: site.name } };
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const page = loaderData?.links.page ?? 1;
  const suffix = page > 1 ? ` (page ${page})` : "";
  return pageMeta(loaderData?.seo, {
    title: `All networks, traffic sources and offers${suffix}`,
    description: `Every affiliate network, traffic source and offer listed on ${loaderData?.seo.siteName ?? "OfferAtlas"}, in one index${suffix}.`,
    path: page > 1 ? `/links?page=${page}` : "/links",
    extra: breadcrumbs(loaderData?.seo, [{ name: "Links", path: "/links" }]),
  });
};

export default function LinksPage({ loaderData }: Route.ComponentProps) {
  const { links } = loaderData;
  return (
    <section>
      <h1 className="text-2xl font-semibold">Links</h1>
      <p className="mt-2 text-slate-600">
        Every network, traffic source and offer in the directory ({formatNumber(links.total)} listings
        {links.totalPages > 1 ? `, page ${links.page} of ${links.totalPages}` : ""}).
      </p>
      <LinkList id="links-networks" title="Affiliate networks" entries={links.networks} />
      <LinkList id="links-traffic" title="Traffic sources" entries={links.trafficSources} />
      <LinkList id="links-offers" title="Offers" entries={links.offers} />
      <Pagination
        page={links.page}
        pageCount={links.totalPages}
        href={(p) => (p === 1 ? "/links" : `/links?page=${p}`)}
        label="Links pages"
      />
    </section>
  );
}
