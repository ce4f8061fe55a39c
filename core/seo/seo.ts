// Search-engine visibility: robots.txt, the sitemaps, the offers feed and the
// /links page, all addressed from the site's public URL.
import type { Queryable } from "#db/client.ts";
import { offersFeed } from "./feed.ts";
import { linksPage } from "./links.ts";
import { createSitemaps, type SitemapOptions } from "./sitemap.ts";

export type SeoSettings = { publicUrl: string } & SitemapOptions;

export function createSeoService(db: Queryable, settings: SeoSettings) {
  const sitemaps = createSitemaps(db, settings);
  /** The absolute origin of a site: its own public URL, else the deployment's. */
  const origin = (site: { publicUrl: string | null }) => (site.publicUrl || settings.publicUrl).replace(/\/+$/, "");

  return {
    origin,
    robots: (site: { publicUrl: string | null }) =>
      [
        "User-agent: *",
        "Allow: /",
        // Account pages and the JSON API are not content; search result permutations are endless.
        "Disallow: /api/",
        "Disallow: /login",
        "Disallow: /register",
        "Disallow: /forgot-password",
        "Disallow: /404",
        "",
        `Sitemap: ${origin(site)}/sitemap.xml`,
        "",
      ].join("\n"),
    sitemapIndex: (site: { id: string; publicUrl: string | null }) => sitemaps.index(site.id, origin(site)),
    sitemapPage: (site: { id: string; publicUrl: string | null }, kind: string, page: number) =>
      sitemaps.page(site.id, origin(site), kind, page),
    offersFeed: (site: { name: string; publicUrl: string | null }, category?: string | null) =>
      offersFeed(db, { origin: origin(site), siteName: site.name, category }),
    links: (siteId: string, page: number) => linksPage(db, siteId, page),
  };
}
