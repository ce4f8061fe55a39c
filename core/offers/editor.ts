// Offers edited from the operator's console: create, edit every field, retire
// and restore. An edit names the `updatedAt` it was made from; if someone saved
// in between it answers 409 instead of overwriting. Each change records its
// audit row and recounts the networks' offers in its own transaction, and then
// `changed` drops the cached answers that could still show the old offer.
import { z } from "zod";
import { sql, array, type Database, type Queryable, type SQL } from "#db/client.ts";
import { allOf, listPage, orderBy } from "#db/listing.ts";
import {
  offerInput,
  offerVersion,
  type AdminOffer,
  type AdminOfferFilter,
  type AdminOfferPage,
  type AdminOfferRow,
  type OfferChoices,
  type OfferInput,
} from "#contracts/offers.ts";
import { recordAudit } from "#core/audit/audit.ts";
import { HttpError, notFound } from "#core/errors.ts";
import { USD_RATES, usdValue } from "#core/reference/currencies.ts";
import { allocateSlugs, slugify, takenSlugs } from "./slugs.ts";

const NOT_FOUND = "Offer not found";
const STALE = "Someone else changed this offer; reload it and try again";
const RETIRED = "This offer is retired; restore it before editing it";

/** Currencies an offer may pay in: those with a reference rate, so its payout ranks against the others. */
const OFFER_CURRENCIES: readonly string[] = Object.keys(USD_RATES).sort();

/** Timestamps to the microsecond, so an `updatedAt` read back compares exactly. */
const iso = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const day = (column: SQL) => sql`to_char(${column}, 'YYYY-MM-DD')`;

const ROW_COLUMNS = sql`
  o.id, o.name, o.slug, o.network_id AS "networkId", n.name AS "networkName", o.status, o.sponsored,
  o.sponsored_keywords AS "sponsoredKeywords", ${day(sql`o.sponsored_from`)} AS "sponsoredFrom",
  ${day(sql`o.sponsored_until`)} AS "sponsoredUntil", o.payout_amount AS "payoutAmount",
  o.payout_percent AS "payoutPercent", o.payout_type AS "payoutType", btrim(o.currency) AS currency,
  o.payout_usd AS "payoutUsd", o.popularity, ${iso(sql`o.created_at`)} AS "createdAt", ${iso(sql`o.updated_at`)} AS "updatedAt"`;

const EDIT_COLUMNS = sql`${ROW_COLUMNS}, o.legacy_id AS "legacyId", o.description, o.preview_url AS "previewUrl",
  o.landing_domain AS "landingDomain", o.external_id AS "externalId", o.countries, o.category_ids AS "categoryIds",
  o.mobile, o.ppc, o.allowed_traffic AS "allowedTraffic", o.restricted_traffic AS "restrictedTraffic"`;

const SORTABLE = {
  updatedAt: sql`o.updated_at`,
  name: sql`lower(o.name)`,
  network: sql`lower(n.name)`,
  status: sql`o.status`,
  payout: sql`o.payout_usd`,
  popularity: sql`o.popularity`,
  createdAt: sql`o.created_at`,
};

export type OfferEditorActor = { siteId: string; userId: number };

/** A refusal shown beside one field of the form (and as the API's `{ message }`). */
const fieldError = (field: keyof OfferInput, message: string) =>
  new z.ZodError([{ code: "custom", path: [field], message, input: undefined }]);

/** Slugs are unique across the directory (core/offers/slugs.ts). */
const SLUG_TAKEN = "Another offer already has this slug";

const isId = (v: unknown) => typeof v === "string" && /^\d{1,15}$/.test(v) && Number(v) <= Number.MAX_SAFE_INTEGER;

/** What the audit log keeps of an offer: the fields the console sets. */
function auditView(o: AdminOffer) {
  const { networkName: _name, createdAt: _created, legacyId: _legacy, popularity: _popularity, ...rest } = o;
  return rest;
}

/** The networks' offer counts (and each site listing's copy) from their active offers, as seeding sets them. */
async function recountNetworks(tx: Queryable, networkIds: readonly number[]) {
  const ids = array([...new Set(networkIds)]);
  await tx.query(sql`
    UPDATE networks n SET offer_count = (SELECT count(*)::int FROM offers o WHERE o.network_id = n.id AND o.status = 'active')
    WHERE n.id = ANY (${ids}::bigint[])`);
  await tx.query(sql`
    UPDATE network_properties p SET offer_count = n.offer_count
    FROM networks n WHERE n.id = p.network_id AND p.network_id = ANY (${ids}::bigint[])`);
}

/** The offer's last history row says the same payout, currency, type and status as the row itself. */
const HISTORY_CURRENT = sql`EXISTS (SELECT 1 FROM (SELECT * FROM offer_history h WHERE h.offer_id = o.id
  ORDER BY h.recorded_at DESC, h.id DESC LIMIT 1) last
  WHERE last.payout_amount IS NOT DISTINCT FROM o.payout_amount AND last.payout_percent IS NOT DISTINCT FROM o.payout_percent
    AND last.currency = o.currency AND last.payout_type = o.payout_type AND last.status = o.status)`;

/**
 * Where a console change meets the offer's history (as a sync's does, core/supply/sync.ts):
 * call before and after the change in its transaction. Before, an offer without history
 * (seeded, or older than history) gets its starting point, dated its last update, so the
 * change reads as a change; after, a row is written when payout, currency, type or status moved.
 * Payout-history charts and e-mail alerts (core/alerts) read these rows.
 */
async function recordHistory(tx: Queryable, offerId: number, when: "before" | "after") {
  await tx.query(sql`
    INSERT INTO offer_history (offer_id, payout_amount, payout_percent, currency, payout_type, payout_usd, status, recorded_at)
    SELECT o.id, o.payout_amount, o.payout_percent, o.currency, o.payout_type, o.payout_usd, o.status,
      ${when === "before" ? sql`o.updated_at` : sql`now()`}
    FROM offers o
    WHERE o.id = ${offerId} AND ${
      when === "before"
        ? sql`NOT EXISTS (SELECT 1 FROM offer_history h WHERE h.offer_id = o.id)`
        : sql`NOT ${HISTORY_CURRENT}`
    }`);
}

export function createOfferEditor(db: Database, options: { changed: () => void }) {
  async function one(q: Queryable, id: number): Promise<AdminOffer | undefined> {
    const [row] = await q.query<AdminOffer>(sql`
      SELECT ${EDIT_COLUMNS} FROM offers o JOIN networks n ON n.id = o.network_id WHERE o.id = ${id}`);
    return row;
  }

  async function existing(rawId: unknown): Promise<AdminOffer> {
    const offer = isId(rawId) ? await one(db, Number(rawId)) : undefined;
    if (!offer) throw notFound(NOT_FOUND);
    return offer;
  }

  /** The references an input makes, checked against the database: each refusal names its field. */
  async function checkReferences(input: OfferInput) {
    const [network] = await db.query(sql`SELECT 1 FROM networks WHERE id = ${input.networkId}`);
    if (!network) throw fieldError("networkId", "networkId must be the id of a network");
    if (!OFFER_CURRENCIES.includes(input.currency))
      throw fieldError("currency", `currency must be one of ${OFFER_CURRENCIES.join(", ")}`);
    if (input.countries.length) {
      const known = await db.query<{ code: string }>(
        sql`SELECT code FROM countries WHERE code = ANY (${array(input.countries)}::text[])`,
      );
      const unknown = input.countries.filter((c) => !known.some((k) => k.code === c));
      if (unknown.length) throw fieldError("countries", `Unknown country code: ${unknown.slice(0, 5).join(", ")}`);
    }
    if (input.categoryIds.length) {
      const known = await db.query<{ id: number }>(
        sql`SELECT id FROM categories WHERE id = ANY (${array(input.categoryIds)}::int[])`,
      );
      if (known.length !== input.categoryIds.length)
        throw fieldError("categoryIds", "categoryIds must be ids of verticals");
    }
  }

  /** The slug asked for (refused when another offer has it), or a free one made from the name. */
  async function slugFor(tx: Queryable, input: OfferInput, selfId: number | null): Promise<string> {
    if (input.slug) {
      if ((await takenSlugs(tx, [input.slug], selfId)).size) throw fieldError("slug", SLUG_TAKEN);
      return input.slug;
    }
    const [slug] = await allocateSlugs(tx, [[slugify(input.name) || "offer"]], selfId);
    return slug;
  }

  const fieldValues = (input: OfferInput, slug: string) => ({
    name: input.name,
    slug,
    networkId: input.networkId,
    description: input.description,
    previewUrl: input.previewUrl,
    landingDomain: input.landingDomain,
    externalId: input.externalId,
    payoutType: input.payoutType,
    payoutAmount: input.payoutAmount,
    payoutPercent: input.payoutPercent,
    currency: input.currency,
    // The one rule for the ranking payout (shared with seeding): the amount at the reference rate.
    payoutUsd: input.payoutAmount === null ? null : usdValue(input.payoutAmount, input.currency),
  });

  return {
    /** What the console's form picks from: every network, vertical, country and currency. */
    async choices(): Promise<OfferChoices> {
      const [networks, categories, countries] = await Promise.all([
        db.query<{ id: number; name: string }>(sql`SELECT id, name FROM networks ORDER BY lower(name), id`),
        db.query<{ id: number; name: string }>(sql`SELECT id, name FROM categories ORDER BY name`),
        db.query<{ code: string; name: string }>(sql`SELECT code, name FROM countries ORDER BY sort_order`),
      ]);
      return { networks, categories, countries, currencies: OFFER_CURRENCIES };
    },

    /** One page of every offer (retired ones too), narrowed by name, network, status and sponsorship. */
    async list(filter: AdminOfferFilter): Promise<AdminOfferPage> {
      const like = filter.q ? `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
      const where = allOf(
        like ? sql`o.name ILIKE ${like}` : undefined,
        filter.networkId ? sql`o.network_id = ${filter.networkId}` : undefined,
        filter.status ? sql`o.status = ${filter.status}` : undefined,
        filter.sponsored === undefined ? undefined : sql`o.sponsored = ${filter.sponsored}`,
      );
      return listPage(
        db,
        filter.page,
        (limit) =>
          db.query<AdminOfferRow>(sql`
            SELECT ${ROW_COLUMNS} FROM offers o JOIN networks n ON n.id = o.network_id
            WHERE ${where} ${orderBy(filter, SORTABLE, sql`o.id`)} ${limit}`),
        sql`SELECT count(*)::int AS total FROM offers o WHERE ${where}`,
      );
    },

    /** One offer with every field the console edits; 404 for an unknown or malformed id. */
    get: (rawId: unknown) => existing(rawId),

    async create(actor: OfferEditorActor, body: unknown): Promise<AdminOffer> {
      const input = offerInput.parse(body ?? {});
      await checkReferences(input);
      const id = await db.transaction(async (tx) => {
        const v = fieldValues(input, await slugFor(tx, input, null));
        const [row] = await tx.query<{ id: number }>(sql`
          INSERT INTO offers (slug, network_id, external_id, name, description, preview_url, landing_domain,
            payout_amount, currency, payout_type, payout_percent, payout_usd, countries, category_ids, mobile, ppc,
            allowed_traffic, restricted_traffic, sponsored, sponsored_keywords, sponsored_from, sponsored_until, status)
          VALUES (${v.slug}, ${v.networkId}, ${v.externalId}, ${v.name}, ${v.description}, ${v.previewUrl},
            ${v.landingDomain}, ${v.payoutAmount}, ${v.currency}, ${v.payoutType}, ${v.payoutPercent}, ${v.payoutUsd},
            ${array(input.countries)}::text[], ${array(input.categoryIds)}::int[], ${input.mobile}, ${input.ppc},
            ${array(input.allowedTraffic)}::text[], ${array(input.restrictedTraffic)}::text[], ${input.sponsored},
            ${array(input.sponsoredKeywords)}::text[], ${input.sponsoredFrom}::date, ${input.sponsoredUntil}::date,
            ${input.status})
          ON CONFLICT (slug) DO NOTHING
          RETURNING id`);
        if (!row) throw fieldError("slug", SLUG_TAKEN);
        await recordHistory(tx, row.id, "after");
        const created = (await one(tx, row.id))!;
        await recordAudit(tx, {
          siteId: actor.siteId,
          actorId: actor.userId,
          action: "offer.create",
          subjectType: "offer",
          subjectId: row.id,
          after: auditView(created),
        });
        await recountNetworks(tx, [input.networkId]);
        return row.id;
      });
      options.changed();
      return (await one(db, id))!;
    },

    /** Saves every field, from the version `updatedAt` the editor saw: 409 when the offer changed since. */
    async update(actor: OfferEditorActor, rawId: unknown, body: unknown): Promise<AdminOffer> {
      const before = await existing(rawId);
      const { updatedAt } = offerVersion.parse(body ?? {});
      const input = offerInput.parse(body);
      if (before.status === "retired") throw new HttpError(409, RETIRED);
      await checkReferences(input);
      const saved = await db.transaction(async (tx) => {
        const v = fieldValues(input, await slugFor(tx, input, before.id));
        await recordHistory(tx, before.id, "before");
        const rows = await tx.query<{ id: number }>(sql`
          UPDATE offers SET slug = ${v.slug}, network_id = ${v.networkId}, external_id = ${v.externalId},
            name = ${v.name}, description = ${v.description}, preview_url = ${v.previewUrl},
            landing_domain = ${v.landingDomain}, payout_amount = ${v.payoutAmount}, currency = ${v.currency},
            payout_type = ${v.payoutType}, payout_percent = ${v.payoutPercent}, payout_usd = ${v.payoutUsd},
            countries = ${array(input.countries)}::text[], category_ids = ${array(input.categoryIds)}::int[],
            mobile = ${input.mobile}, ppc = ${input.ppc}, allowed_traffic = ${array(input.allowedTraffic)}::text[],
            restricted_traffic = ${array(input.restrictedTraffic)}::text[], sponsored = ${input.sponsored},
            sponsored_keywords = ${array(input.sponsoredKeywords)}::text[],
            sponsored_from = ${input.sponsoredFrom}::date, sponsored_until = ${input.sponsoredUntil}::date,
            status = ${input.status}, updated_at = clock_timestamp()
          WHERE id = ${before.id} AND status <> 'retired' AND ${iso(sql`updated_at`)} = ${updatedAt}
          RETURNING id`);
        if (!rows.length) return false;
        await recordHistory(tx, before.id, "after");
        const after = (await one(tx, before.id))!;
        await recordAudit(tx, {
          siteId: actor.siteId,
          actorId: actor.userId,
          action: "offer.update",
          subjectType: "offer",
          subjectId: before.id,
          before: auditView(before),
          after: auditView(after),
        });
        await recountNetworks(tx, [before.networkId, input.networkId]);
        return true;
      });
      if (!saved) throw new HttpError(409, STALE);
      options.changed();
      return (await one(db, before.id))!;
    },

    /** Takes the offer out of the directory (search, listings, counts, sitemap, feed); its page answers 410. */
    retire: (actor: OfferEditorActor, rawId: unknown, body: unknown) =>
      setStatus(actor, rawId, body, { from: "listed", to: "retired" }),

    /** Lists a retired offer again, as active. */
    restore: (actor: OfferEditorActor, rawId: unknown, body: unknown) =>
      setStatus(actor, rawId, body, { from: "retired", to: "active" }),
  };

  async function setStatus(
    actor: OfferEditorActor,
    rawId: unknown,
    body: unknown,
    change: { from: "listed" | "retired"; to: "retired" | "active" },
  ): Promise<AdminOffer> {
    const before = await existing(rawId);
    const { updatedAt } = offerVersion.parse(body ?? {});
    const retired = before.status === "retired";
    if (change.from === "listed" && retired) throw new HttpError(409, "This offer is already retired");
    if (change.from === "retired" && !retired) throw new HttpError(409, "This offer is not retired");
    const saved = await db.transaction(async (tx) => {
      await recordHistory(tx, before.id, "before");
      const rows = await tx.query<{ id: number }>(sql`
        UPDATE offers SET status = ${change.to}, retired_with_network = false,
          retired_by_operator = ${change.to === "retired"}, updated_at = clock_timestamp()
        WHERE id = ${before.id} AND ${iso(sql`updated_at`)} = ${updatedAt}
          AND ${change.from === "retired" ? sql`status = 'retired'` : sql`status <> 'retired'`}
        RETURNING id`);
      if (!rows.length) return false;
      await recordHistory(tx, before.id, "after");
      await recordAudit(tx, {
        siteId: actor.siteId,
        actorId: actor.userId,
        action: change.to === "retired" ? "offer.retire" : "offer.restore",
        subjectType: "offer",
        subjectId: before.id,
        before: { status: before.status },
        after: { status: change.to },
      });
      await recountNetworks(tx, [before.networkId]);
      return true;
    });
    if (!saved) throw new HttpError(409, STALE);
    options.changed();
    return (await one(db, before.id))!;
  }
}
