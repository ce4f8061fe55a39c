// Sites: every request names one (header or `site` query); an unknown one is refused.
import { sql, type Queryable } from "#db/client.ts";
import { HttpError } from "../errors.ts";

export type SiteLinks = {
  dashboardUrl?: string;
  advertiserLoginUrl?: string;
  passwordRecoveryUrl?: string;
  blogUrl?: string;
  trainingVideosUrl?: string;
  callTrackingUrl?: string;
  facebookUrl?: string;
  youtubeUrl?: string;
  twitterUrl?: string;
};

export type Site = { id: string; name: string; publicUrl: string | null; links: SiteLinks };

/** The requested site is not served here; the message does not repeat the id the client sent. */
export class UnknownSiteError extends HttpError {
  constructor() {
    super(400, "Unknown site");
  }
}

export function createSiteService(db: Queryable, defaultSiteId: string) {
  // Sites change only through deployments; a short cache keeps them off the hot path.
  let cache: { at: number; sites: Map<string, Site> } | undefined;
  const TTL_MS = 30_000;

  async function all(): Promise<Map<string, Site>> {
    if (cache && Date.now() - cache.at < TTL_MS) return cache.sites;
    const rows = await db.query<{ id: string; name: string; public_url: string | null; links: SiteLinks }>(
      sql`SELECT id, name, public_url, links FROM sites`,
    );
    const sites = new Map(rows.map((r) => [r.id, { id: r.id, name: r.name, publicUrl: r.public_url, links: r.links }]));
    cache = { at: Date.now(), sites };
    return sites;
  }

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
      cache = undefined;
    },
  };
}

export type SiteService = ReturnType<typeof createSiteService>;
