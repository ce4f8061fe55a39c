// Sites: every request names one (header or `site` query); an unknown one is refused.
import { sql, type Queryable } from "#db/client.ts";
import { HttpError } from "#core/errors.ts";
import { cachedValue } from "#core/cache/cache.ts";
import type { Site, SiteLinks } from "#contracts/site.ts";

/** The requested site is not served here; the message does not repeat the id the client sent. */
class UnknownSiteError extends HttpError {
  constructor() {
    super(400, "Unknown site");
  }
}

export function createSiteService(db: Queryable, defaultSiteId: string) {
  // Sites change only through deployments; a short cache keeps them off the hot path.
  const all = cachedValue(30_000, async (): Promise<Map<string, Site>> => {
    const rows = await db.query<{ id: string; name: string; public_url: string | null; links: SiteLinks }>(
      sql`SELECT id, name, public_url, links FROM sites`,
    );
    return new Map(rows.map((r) => [r.id, { id: r.id, name: r.name, publicUrl: r.public_url, links: r.links }]));
  });

  return {
    defaultSiteId,
    /** Missing or empty → the default site; unknown → UnknownSiteError. */
    async resolve(requested: string | undefined | null): Promise<Site> {
      const id = requested?.trim() || defaultSiteId;
      const site = (await all()).get(id);
      if (!site) throw new UnknownSiteError();
      return site;
    },
    async ensureDefault(name = "OfferAtlas"): Promise<void> {
      await db.query(sql`INSERT INTO sites (id, name) VALUES (${defaultSiteId}, ${name}) ON CONFLICT (id) DO NOTHING`);
      all.clear();
    },
  };
}
