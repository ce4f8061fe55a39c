// One offer with everything its page shows: all fields, its network (rating,
// joining link on this site), the same product at other networks and similar offers.
import { sql, array, type Queryable, type SQL } from "#db/client.ts";
import type { OfferDetail, OfferListItem, SameOfferRow } from "#contracts/offers.ts";
import { queryOfferRows } from "./listing.ts";
import { OFFER_CURRENCY, OFFER_FROM, sponsoredNow } from "./columns.ts";
import { sameProduct } from "#core/supply/matching.ts";
import { verifiedAtSql } from "#core/supply/verification.ts";

/** The payout history an offer page shows: its last this many points. */
const PAYOUT_HISTORY_MAX = 100;

/** A timestamp as the ISO text JavaScript writes (UTC, milliseconds), whatever the session's time zone. */
const utcIso = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

type RawDetail = Omit<OfferDetail, "createdAt" | "updatedAt"> & { createdAt: Date; updatedAt: Date };

// The columns in the order of OfferDetail, under its names (see ./columns.ts).
function detailSql(siteId: string, where: SQL) {
  return sql`
    SELECT o.id, o.legacy_id AS "legacyId", o.slug, o.name, o.description, o.preview_url AS "previewUrl",
      o.landing_domain AS "landingDomain", o.product_key AS "productKey", o.payout_amount AS "payoutAmount",
      o.payout_percent AS "payoutPercent", o.payout_usd AS "payoutUsd", o.payout_type AS "payoutType", ${OFFER_CURRENCY},
      coalesce((SELECT json_agg(json_build_object('code', k.code, 'name', coalesce(co.name, k.code)) ORDER BY k.ord)
                FROM unnest(o.countries) WITH ORDINALITY AS k(code, ord) LEFT JOIN countries co ON co.code = k.code), '[]') AS countries,
      coalesce((SELECT json_agg(json_build_object('id', cat.id, 'slug', cat.slug, 'name', cat.name) ORDER BY cat.name)
                FROM categories cat WHERE cat.id = ANY (o.category_ids)), '[]') AS categories,
      o.mobile, o.ppc, o.allowed_traffic AS "allowedTraffic", o.restricted_traffic AS "restrictedTraffic", ${sponsoredNow()} AS sponsored,
      o.status, o.popularity, o.created_at AS "createdAt", o.updated_at AS "updatedAt",
      (SELECT json_build_object('at', ${utcIso(verifiedAtSql(sql`o`, sql`s`))}, 'platform', s.platform)
       FROM offer_sources s WHERE s.id = o.source_id AND o.verified_at IS NOT NULL) AS verification,
      coalesce((SELECT json_agg(json_build_object('at', ${utcIso(sql`h.recorded_at`)}, 'payout', h.payout_amount::float8,
                  'payoutPercent', h.payout_percent::float8, 'currency', json_build_object('code', btrim(h.currency), 'symbol', coalesce(hc.symbol, btrim(h.currency)),
                    'decimalDigits', coalesce(hc.decimal_digits, 2), 'rounding', coalesce(hc.rounding::float8, 0)), 'payoutType', h.payout_type,
                  'status', h.status) ORDER BY h.recorded_at, h.id)
                FROM (SELECT * FROM offer_history WHERE offer_id = o.id
                      ORDER BY recorded_at DESC, id DESC LIMIT ${PAYOUT_HISTORY_MAX}) h
                LEFT JOIN currencies hc ON hc.code = h.currency), '[]') AS "payoutHistory",
      json_build_object(
        'id', n.id, 'slug', n.slug, 'name', n.name, 'logoUrl', n.logo_url, 'avgRating', n.avg_rating::float8,
        'reviewCount', n.review_count, 'featured', n.featured, 'offerCount', coalesce(p.offer_count, n.offer_count),
        'joiningLink', p.joining_link, 'website', n.website
      ) AS network
    FROM ${OFFER_FROM}
    LEFT JOIN network_properties p ON p.network_id = n.id AND p.identifier = ${siteId}
    WHERE ${where} LIMIT 1`;
}

const toDetail = (r: RawDetail): OfferDetail => ({
  ...r,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

const isId = (v: string | number) => (typeof v === "number" ? Number.isSafeInteger(v) && v > 0 : /^\d{1,15}$/.test(v));

async function offerById(db: Queryable, siteId: string, id: string | number): Promise<OfferDetail | null> {
  if (!isId(id)) return null;
  const [row] = await db.query<RawDetail>(detailSql(siteId, sql`o.id = ${Number(id)}`));
  return row ? toDetail(row) : null;
}

/** Ids from the old site (offers.legacy_id). */
async function offerByLegacyId(db: Queryable, siteId: string, legacyId: string | number): Promise<OfferDetail | null> {
  if (!isId(legacyId) || Number(legacyId) > 2_147_483_647) return null;
  const [row] = await db.query<RawDetail>(detailSql(siteId, sql`o.legacy_id = ${Number(legacyId)}`));
  return row ? toDetail(row) : null;
}

/** A slug names one offer: slugs are unique (migration 0024, core/offers/slugs.ts). */
async function offerBySlug(db: Queryable, siteId: string, slug: string): Promise<OfferDetail | null> {
  if (!/^[a-z0-9-]{1,200}$/.test(slug)) return null;
  const [row] = await db.query<RawDetail>(detailSql(siteId, sql`o.slug = ${slug}`));
  return row ? toDetail(row) : null;
}

/**
 * How an address names an offer: by id, by the old site's id, or by one path
 * segment (digits are an id, anything else a slug; old links put the old site's
 * id where the id goes, so `legacyFallback` tries it when no offer has that id).
 */
export type OfferKey =
  { id: string | number } | { legacyId: string | number } | { segment: string; legacyFallback?: boolean };

/** The one offer lookup of the API and the pages. */
export async function findOffer(db: Queryable, siteId: string, key: OfferKey): Promise<OfferDetail | null> {
  if ("id" in key) return offerById(db, siteId, key.id);
  if ("legacyId" in key) return offerByLegacyId(db, siteId, key.legacyId);
  if (!/^\d+$/.test(key.segment)) return offerBySlug(db, siteId, key.segment);
  return (
    (await offerById(db, siteId, key.segment)) ?? (key.legacyFallback ? offerByLegacyId(db, siteId, key.segment) : null)
  );
}

/**
 * "Same offer at other networks": every active listing of the same product
 * (core/supply/matching.ts: name key, then landing domain or geos), best payout
 * first, the offer itself included and marked.
 */
export async function sameOfferAtOtherNetworks(db: Queryable, offer: OfferDetail, limit = 20): Promise<SameOfferRow[]> {
  const listing = {
    id: offer.id,
    // The name key is product_key's first part (normalised names hold no "|").
    productName: offer.productKey.slice(0, offer.productKey.lastIndexOf("|")),
    landingDomain: offer.landingDomain,
    countries: offer.countries.map((c) => c.code),
  };
  const rows = await queryOfferRows(
    db,
    sql`${sameProduct(listing)} AND (o.status = 'active' OR o.id = ${offer.id})`,
    sql`ORDER BY o.payout_usd DESC NULLS LAST, o.payout_percent DESC NULLS LAST, n.avg_rating DESC, o.id LIMIT ${limit}`,
  );
  const extra = await db.query<{ id: number; payout_usd: number | null; avg_rating: number }>(sql`
    SELECT o.id, o.payout_usd, n.avg_rating::float8 AS avg_rating FROM offers o JOIN networks n ON n.id = o.network_id
    WHERE o.id = ANY (${array(rows.map((r) => r.id))}::bigint[])`);
  const byId = new Map(extra.map((e) => [e.id, e]));
  return rows.map((r) => ({
    ...r,
    payoutUsd: byId.get(r.id)?.payout_usd ?? null,
    networkRating: byId.get(r.id)?.avg_rating ?? 0,
    current: r.id === offer.id,
  }));
}

/** Popular offers in the same verticals, one listing per product, other products only. */
export async function similarOffers(db: Queryable, offer: OfferDetail, limit = 6): Promise<OfferListItem[]> {
  const categoryIds = offer.categories.map((c) => c.id);
  if (!categoryIds.length) return [];
  return queryOfferRows(
    db,
    sql`o.id IN (
      SELECT DISTINCT ON (s.product_key) s.id FROM (
        SELECT o2.id, o2.product_key, o2.popularity FROM offers o2
        WHERE o2.status = 'active' AND o2.category_ids && ${array(categoryIds)}::int[] AND o2.product_key <> ${offer.productKey}
        ORDER BY o2.popularity DESC, o2.id DESC LIMIT ${limit * 4}
      ) s ORDER BY s.product_key, s.popularity DESC, s.id DESC)`,
    sql`ORDER BY o.popularity DESC, o.id DESC LIMIT ${limit}`,
  );
}

/** Offers side by side on /compare, in the order asked for; unknown and retired ids are left out. */
export async function offersForCompare(db: Queryable, siteId: string, ids: readonly number[]): Promise<OfferDetail[]> {
  const found = await Promise.all(ids.map((id) => offerById(db, siteId, id)));
  return found.filter((o): o is OfferDetail => o !== null && o.status !== "retired");
}
