// Per-page search and sharing tags: title, description, canonical URL, Open
// Graph and Twitter card, plus JSON-LD structured data. A route's loader
// returns `seo: { origin, siteName }` (from services.seo.origin) and its
// `meta` export calls pageMeta with it.
import type { MetaDescriptor } from "react-router";

export type SeoContext = { origin: string; siteName: string };

type PageMeta = {
  title: string;
  description: string;
  /** Path (and query, if it names a distinct page) of the canonical address. */
  path: string;
  type?: "website" | "article" | "product";
  /** A picture for link previews (a network's logo), absolute or on this site. */
  image?: string | null;
  /** Extra descriptors: JSON-LD blocks, robots directives. */
  extra?: MetaDescriptor[];
};

/** What search results show of a description: about 160 characters. */
export const DESCRIPTION_MAX = 160;

/** A description for search results: one line, at most DESCRIPTION_MAX characters, cut between words with "…". */
export function describe(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= DESCRIPTION_MAX) return line;
  const cut = line.slice(0, DESCRIPTION_MAX - 1);
  const space = cut.lastIndexOf(" ");
  // One very long word: cut inside it rather than say nothing.
  const words = space > DESCRIPTION_MAX / 2 ? cut.slice(0, space) : cut;
  return `${words.replace(/[\s,;:.–—-]+$/, "")}…`;
}

export function pageMeta(seo: SeoContext | undefined, page: PageMeta): MetaDescriptor[] {
  const siteName = seo?.siteName ?? "OfferAtlas";
  const description = describe(page.description);
  const title = `${page.title} | ${siteName}`;
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: description },
    { property: "og:type", content: page.type ?? "website" },
    { property: "og:site_name", content: siteName },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { name: "twitter:card", content: "summary" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
  ];
  if (seo) {
    const url = absolute(seo, page.path);
    tags.push({ tagName: "link", rel: "canonical", href: url }, { property: "og:url", content: url });
    if (page.image) {
      const image = /^https?:\/\//.test(page.image) ? page.image : absolute(seo, page.image);
      tags.push({ property: "og:image", content: image }, { name: "twitter:image", content: image });
    }
  }
  return [...tags, ...(page.extra ?? [])];
}

/** The SEO context the root loader provides, for routes whose own loader does not return one. */
export function rootSeo(
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>,
): SeoContext | undefined {
  const root = matches.find((m) => m?.id === "root")?.loaderData as { seo?: SeoContext } | undefined;
  return root?.seo;
}

/** The meta export of a page whose tags are fixed and need only the root's SEO context. */
export const fixedPageMeta =
  (page: PageMeta) =>
  ({ matches }: { matches: Parameters<typeof rootSeo>[0] }) =>
    pageMeta(rootSeo(matches), page);

/**
 * The tags of a page kept out of search results (an account page, the console, a page a mailed
 * token opens): its own title and description, canonical at its path alone (its query may hold
 * a token or a selection), and the robots rule saying so.
 */
export const unlistedPageMeta = (
  { matches, location }: { matches: Parameters<typeof rootSeo>[0]; location: { pathname: string } },
  page: { title: string; description: string; robots?: "noindex" | "noindex, nofollow" },
) =>
  pageMeta(rootSeo(matches), {
    title: page.title,
    description: page.description,
    path: location.pathname,
    extra: [{ name: "robots", content: page.robots ?? "noindex" }],
  });

export const absolute = (seo: SeoContext, path: string) => `${seo.origin}${path.startsWith("/") ? path : `/${path}`}`;

/** A JSON-LD block (rendered as <script type="application/ld+json">). */
export const jsonLd = (data: Record<string, unknown>): MetaDescriptor => ({ "script:ld+json": data });

/** BreadcrumbList from Home to the page. */
export function breadcrumbs(seo: SeoContext | undefined, trail: { name: string; path: string }[]): MetaDescriptor[] {
  if (!seo) return [];
  const items = [{ name: "Home", path: "/" }, ...trail];
  return [
    jsonLd({
      "@context": "https://schema.org",
      "@type": "BreadcrumbList",
      itemListElement: items.map((item, i) => ({
        "@type": "ListItem",
        position: i + 1,
        name: item.name,
        item: absolute(seo, item.path),
      })),
    }),
  ];
}
