// Networks: listings per site with their properties, detail lookups by id,
// slug and old-site id, and join clicks.
import crypto from "node:crypto";
import { sql, type Queryable, type SQL } from "#db/client.ts";
import { HttpError, notFound } from "#core/errors.ts";
import {
  COMMISSION_TYPES,
  PAYMENT_FREQUENCIES,
  PAYMENT_METHODS,
  TRACKING_PLATFORMS,
  shuffle,
  sortNetworksByName,
  type NetworkDetail,
  type NetworkOptions,
  type NetworkProperty,
  type NetworkSummary,
} from "#contracts/networks.ts";
import { trustScore } from "#contracts/reviews.ts";
import { COUNTRIES } from "#core/reference/countries.ts";
import { hashIp } from "../privacy.ts";
import { createRateLimiter, type RateLimiter, type RateRule } from "../rate-limit/limiter.ts";

type RawNetwork = {
  id: number;
  legacy_id: number | null;
  slug: string;
  name: string;
  description: string;
  logo_url: string | null;
  website: string | null;
  featured: boolean;
  payment_terms: string | null;
  payment_methods: string[];
  minimum_payment: number | null;
  tracking_platform: string | null;
  commission_types: string[];
  avg_rating: number;
  review_count: number;
  offer_count: number;
  properties: { identifier: string; joining_link: string | null; paid_account: boolean; offer_count: number }[];
  /** The site's pinned place for this network (console placements), else null. */
  display_order?: number | null;
};

const NETWORK_COLUMNS = sql`
  n.id, n.legacy_id, n.slug, n.name, n.description, n.logo_url, n.website, n.featured, n.payment_terms,
  n.payment_methods, n.minimum_payment, n.tracking_platform, n.commission_types, n.avg_rating, n.review_count,
  n.offer_count,
  coalesce((SELECT jsonb_agg(jsonb_build_object('identifier', p.identifier, 'joining_link', p.joining_link,
              'paid_account', p.paid_account, 'offer_count', p.offer_count) ORDER BY p.identifier)
            FROM network_properties p WHERE p.network_id = n.id), '[]'::jsonb) AS properties`;

/** NETWORK_COLUMNS plus the site's pinned place. */
const listColumns = (siteId: string) => sql`${NETWORK_COLUMNS},
  (SELECT p.display_order FROM network_properties p WHERE p.network_id = n.id AND p.identifier = ${siteId}) AS display_order`;

/** Networks pinned to a place on the site come first, in that order; the rest keep the shuffle. */
function pinnedFirst(rows: readonly RawNetwork[], random: () => number): RawNetwork[] {
  const pinned = rows
    .filter((r) => r.display_order != null)
    .sort((a, b) => a.display_order! - b.display_order! || a.id - b.id);
  return [
    ...pinned,
    ...shuffle(
      rows.filter((r) => r.display_order == null),
      random,
    ),
  ];
}

function toSummary(r: RawNetwork, siteId: string): NetworkSummary {
  const properties: NetworkProperty[] = r.properties.map((p) => ({
    identifier: p.identifier,
    joiningLink: p.joining_link,
    paidAccount: p.paid_account,
    offerCount: p.offer_count,
  }));
  const own = properties.find((p) => p.identifier === siteId);
  return {
    id: r.id,
    name: r.name,
    slug: r.slug,
    logoUrl: r.logo_url,
    avgRating: r.avg_rating,
    reviewCount: r.review_count,
    trustScore: trustScore(r.avg_rating, r.review_count),
    featured: r.featured,
    paymentTerms: r.payment_terms,
    properties,
    joiningLink: own?.joiningLink ?? null,
    paidAccount: own?.paidAccount ?? false,
    offerCount: own ? own.offerCount : r.offer_count,
  };
}

function toDetail(r: RawNetwork, siteId: string): NetworkDetail {
  return {
    ...toSummary(r, siteId),
    legacyId: r.legacy_id,
    description: r.description,
    website: r.website,
    paymentMethods: r.payment_methods,
    minimumPayment: r.minimum_payment,
    trackingPlatform: r.tracking_platform,
    commissionTypes: r.commission_types,
  };
}

/** Unbiased shuffles from the OS generator: the order must not be guessable or skewed. */
export const secureRandom = () => crypto.randomInt(0, 2 ** 47) / 2 ** 47;

/**
 * The same unbiased numbers in the same order for the same seed (a directory's `order`): each is
 * 48 bits of SHA-256 over the seed and a counter, so a shuffle can be repeated but not steered.
 */
export function seededRandom(seed: string): () => number {
  let counter = 0;
  return () => crypto.createHash("sha256").update(`${seed}:${counter++}`).digest().readUIntBE(0, 6) / 2 ** 48;
}

/** A seed's shuffle, or a fresh one from the OS generator without a seed. */
export const shuffleRandom = (order?: string) => (order ? seededRandom(order) : secureRandom);

/** What an old link to a retired listing is told (410). */
export type RetiredListing = { id: number; name: string; slug: string };

/** The API's answer for a retired listing. */
export const noLongerListed = (r: RetiredListing) => new HttpError(410, `${r.name} is no longer listed`);

export type ListNetworksOptions = {
  featured?: boolean;
  search?: string;
  /** A directory's seed (DIRECTORY_ORDER): the same seed, the same order. */
  order?: string;
};

/** Lowercased, trimmed, inner whitespace collapsed; LIKE wildcards escaped. */
export function likePattern(search: string): string {
  const term = search.trim().toLowerCase().replace(/\s+/g, " ");
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Join requests one address may make (any networks), shared by every instance. */
export const JOIN_RATE_LIMIT: RateRule = { limit: 60, windowSeconds: 60 };
/** One recorded join click per visitor (signed-in user, else address) and network in this window. */
const JOIN_DEDUP_SECONDS = 3600;

export function createNetworkService(db: Queryable, options: { ipHashSalt?: string; limiter?: RateLimiter } = {}) {
  const limiter = options.limiter ?? createRateLimiter(db);
  const listedOn = (siteId: string) =>
    sql`n.status = 'active' AND EXISTS (SELECT 1 FROM network_properties sp WHERE sp.network_id = n.id AND sp.identifier = ${siteId})`;

  async function select(where: SQL, tail: SQL = sql``, columns: SQL = NETWORK_COLUMNS): Promise<RawNetwork[]> {
    return db.query<RawNetwork>(sql`SELECT ${columns} FROM networks n WHERE ${where} ${tail}`);
  }

  async function one(siteId: string, where: SQL): Promise<NetworkDetail | null> {
    const [row] = await select(sql`n.status = 'active' AND ${where}`, sql`LIMIT 1`);
    return row ? toDetail(row, siteId) : null;
  }

  const isId = (v: string | number) => /^[1-9][0-9]{0,15}$/.test(String(v)) && Number(v) <= Number.MAX_SAFE_INTEGER;

  async function byId(siteId: string, id: string | number): Promise<NetworkDetail | null> {
    return isId(id) ? one(siteId, sql`n.id = ${Number(id)}`) : null;
  }

  return {
    /**
     * Every network listed on the site (optionally only featured or matching a name), shuffled on
     * each call (docs/product.md §4); networks the console pinned to a place come first.
     */
    async list(siteId: string, opts: ListNetworksOptions = {}): Promise<NetworkSummary[]> {
      let where = listedOn(siteId);
      if (opts.featured) where = sql`${where} AND n.featured`;
      if (opts.search?.trim()) where = sql`${where} AND lower(n.name) LIKE ${likePattern(opts.search)}`;
      const rows = await select(where, sql``, listColumns(siteId));
      return pinnedFirst(rows, shuffleRandom(opts.order)).map((r) => toSummary(r, siteId));
    },

    /** Networks with offers sorted by lowercase name: the list filters pick from. */
    async sortedByName(siteId: string): Promise<NetworkSummary[]> {
      const rows = await select(listedOn(siteId));
      return sortNetworksByName(rows.map((r) => toSummary(r, siteId)));
    },

    /** The best-trusted networks: highest trust score, then most offers. */
    async top(siteId: string, limit = 10): Promise<NetworkSummary[]> {
      const rows = await select(listedOn(siteId));
      return rows
        .map((r) => toSummary(r, siteId))
        .sort((a, b) => b.trustScore - a.trustScore || b.offerCount - a.offerCount || a.id - b.id)
        .slice(0, limit);
    },

    /** A random handful of networks with a paid account on the site, in random order. */
    async randomPaid(siteId: string, limit = 10): Promise<NetworkSummary[]> {
      const rows = await select(sql`${listedOn(siteId)} AND EXISTS (
        SELECT 1 FROM network_properties pp WHERE pp.network_id = n.id AND pp.identifier = ${siteId} AND pp.paid_account)`);
      return shuffle(
        rows.map((r) => toSummary(r, siteId)),
        secureRandom,
      ).slice(0, limit);
    },

    byId,

    /** The id a network had on the old site (legacy addresses and API lookups). */
    async byLegacyId(siteId: string, legacyId: string | number): Promise<NetworkDetail | null> {
      return isId(legacyId) && Number(legacyId) <= 2_147_483_647
        ? one(siteId, sql`n.legacy_id = ${Number(legacyId)}`)
        : null;
    },

    async bySlug(siteId: string, slug: string): Promise<NetworkDetail | null> {
      if (!slug || slug.length > 200) return null;
      return one(siteId, sql`n.slug = ${slug.toLowerCase()}`);
    },

    /**
     * The retired network an old address names (by id, old-site id or slug), or null:
     * its page and API answer 410 instead of 404.
     */
    async retired(key: {
      id?: string | number;
      legacyId?: string | number;
      slug?: string;
    }): Promise<RetiredListing | null> {
      const match =
        key.id !== undefined && isId(key.id)
          ? sql`n.id = ${Number(key.id)}`
          : key.legacyId !== undefined && isId(key.legacyId) && Number(key.legacyId) <= 2_147_483_647
            ? sql`n.legacy_id = ${Number(key.legacyId)}`
            : key.slug && key.slug.length <= 200
              ? sql`n.slug = ${key.slug.toLowerCase()}`
              : undefined;
      if (!match) return null;
      const [row] = await db.query<RetiredListing>(
        sql`SELECT n.id, n.name, n.slug FROM networks n WHERE n.status = 'retired' AND ${match} LIMIT 1`,
      );
      return row ?? null;
    },

    /**
     * Records a join click and answers where to send the visitor: the site's
     * joining link, else the network's website. IPs are stored only as salted hashes.
     * Every call answers the link, but a visitor's repeated clicks on one network
     * record one click an hour, and one address gets JOIN_RATE_LIMIT calls (then 429),
     * so the endpoint cannot be used to write rows in bulk.
     */
    async join(input: {
      networkId: string | number;
      siteId: string;
      userId: number | null;
      ip: string;
      userAgent: string | undefined;
    }) {
      const ipHash = hashIp(input.ip, options.ipHashSalt ?? "");
      await limiter.consume(`join:ip:${ipHash}`, JOIN_RATE_LIMIT);
      const network = await byId(input.siteId, input.networkId);
      if (!network) throw notFound("Network not found");
      const joiningLink = network.joiningLink ?? network.website;
      if (!joiningLink) throw notFound("This network has no joining link");
      // The first click of the window starts it (one atomic upsert); later ones are not recorded.
      const visitor = input.userId !== null ? `user:${input.userId}` : `ip:${ipHash}`;
      const first = await limiter.hit(`join:seen:${network.id}:${visitor}`, 1, JOIN_DEDUP_SECONDS);
      if (first.allowed) {
        await db.query(sql`
          INSERT INTO join_clicks (network_id, site_id, user_id, ip_hash, user_agent)
          VALUES (${network.id}, ${input.siteId}, ${input.userId}, ${ipHash}, ${input.userAgent?.slice(0, 500) ?? null})`);
      }
      return { joiningLink };
    },

    /** Choices of the add-your-network form; its verticals are the category names. */
    async options(): Promise<NetworkOptions> {
      const rows = await db.query<{ name: string }>(sql`SELECT name FROM categories ORDER BY sort_order, name`);
      return {
        trackingPlatforms: [...TRACKING_PLATFORMS],
        paymentFrequencies: [...PAYMENT_FREQUENCIES],
        paymentMethods: [...PAYMENT_METHODS],
        commissionTypes: [...COMMISSION_TYPES],
        verticals: rows.map((r) => r.name),
        countries: COUNTRIES.map(({ code, name }) => ({ code, name })),
      };
    },
  };
}
