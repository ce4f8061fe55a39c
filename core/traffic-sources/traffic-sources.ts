// Traffic sources: the listing (featured first, each group shuffled, docs/product.md §4)
// and detail lookups by id and by old-site id.
import { sql, type Queryable, type SQL } from "#db/client.ts";
import { shuffle } from "#contracts/networks.ts";
import type { TrafficSource } from "#contracts/traffic-sources.ts";
import { likePattern, secureRandom, shuffleRandom, type RetiredListing } from "#core/networks/networks.ts";

type RawTrafficSource = {
  id: number;
  legacy_id: number | null;
  name: string;
  slug: string;
  description: string;
  website: string | null;
  logo_url: string | null;
  featured: boolean;
  ad_formats: string[];
  pricing_models: string[];
  minimum_deposit: number | null;
  geos: string[];
};

const toTrafficSource = (r: RawTrafficSource): TrafficSource => ({
  id: r.id,
  legacyId: r.legacy_id,
  name: r.name,
  slug: r.slug,
  description: r.description,
  website: r.website,
  logoUrl: r.logo_url,
  featured: r.featured,
  adFormats: r.ad_formats,
  pricingModels: r.pricing_models,
  minimumDeposit: r.minimum_deposit,
  geos: r.geos,
});

/** Featured ones first, each group in a fresh random order. */
function featuredFirst<T extends { featured: boolean }>(items: readonly T[], random: () => number = secureRandom): T[] {
  return [
    ...shuffle(
      items.filter((i) => i.featured),
      random,
    ),
    ...shuffle(
      items.filter((i) => !i.featured),
      random,
    ),
  ];
}

const isId = (v: string | number) => /^[1-9][0-9]{0,9}$/.test(String(v)) && Number(v) <= 2_147_483_647;

export function createTrafficSourceService(db: Queryable) {
  const select = (where: SQL) =>
    db.query<RawTrafficSource>(sql`
      SELECT id, legacy_id, name, slug, description, website, logo_url, featured, ad_formats, pricing_models,
             minimum_deposit, geos
      FROM traffic_sources WHERE status = 'active' AND ${where}`);

  return {
    /** Featured first, each part shuffled: afresh, or as the directory's seed (`order`) orders it. */
    async list(opts: { search?: string; order?: string } = {}): Promise<TrafficSource[]> {
      const where = opts.search?.trim() ? sql`lower(name) LIKE ${likePattern(opts.search)}` : sql`true`;
      return featuredFirst((await select(where)).map(toTrafficSource), shuffleRandom(opts.order));
    },
    async byId(id: string | number): Promise<TrafficSource | null> {
      if (!isId(id)) return null;
      const [row] = await select(sql`id = ${Number(id)}`);
      return row ? toTrafficSource(row) : null;
    },
    /** The retired traffic source an old address names (by id or old-site id), or null: it answers 410. */
    async retired(key: { id?: string | number; legacyId?: string | number }): Promise<RetiredListing | null> {
      const match =
        key.id !== undefined && isId(key.id)
          ? sql`id = ${Number(key.id)}`
          : key.legacyId !== undefined && isId(key.legacyId)
            ? sql`legacy_id = ${Number(key.legacyId)}`
            : undefined;
      if (!match) return null;
      const [row] = await db.query<RetiredListing>(
        sql`SELECT id, name, slug FROM traffic_sources WHERE status = 'retired' AND ${match} LIMIT 1`,
      );
      return row ?? null;
    },
    async byLegacyId(legacyId: string | number): Promise<TrafficSource | null> {
      if (!isId(legacyId)) return null;
      const [row] = await select(sql`legacy_id = ${Number(legacyId)}`);
      return row ? toTrafficSource(row) : null;
    },
  };
}
