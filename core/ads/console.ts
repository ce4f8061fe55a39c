// House ads in the console: list, create, edit and retire, each change with its
// audit row in the same transaction. An edit or a retirement names the
// `updatedAt` it was made from; if someone saved in between, it answers 409.
import { z } from "zod";
import { sql, array, type Database, type SQL } from "#db/client.ts";
import {
  adFilter,
  adInput,
  adUpdatedAt,
  type AdInput,
  type AdminAdList,
  type AdminHouseAd,
  type AdSort,
} from "#contracts/ads.ts";
import { integerField } from "#contracts/validation.ts";
import { recordAudit } from "#core/audit/audit.ts";
import { HttpError, notFound } from "#core/errors.ts";
import { allOf, listPage, orderBy } from "#db/listing.ts";
import { AD_STATUS } from "./status.ts";
import { ctrOf } from "./stats.ts";

const NOT_FOUND = "House ad not found";
const STALE = "Someone else changed this ad; reload it and try again";

/** Timestamps to the microsecond, so an `updatedAt` read back compares exactly. */
const iso = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The list's impressions and clicks: the last 30 days, today included. */
const RECENT = sql`
  SELECT ad_id, sum(impressions)::bigint AS impressions, sum(clicks)::bigint AS clicks
  FROM house_ad_stats WHERE day > (now() AT TIME ZONE 'UTC')::date - 30 GROUP BY ad_id`;

const SORTS: Record<AdSort, SQL> = {
  id: sql`a.id`,
  headline: sql`lower(a.headline)`,
  size: sql`a.slot_size`,
  weight: sql`a.weight`,
  startsOn: sql`a.starts_on`,
  impressions: sql`coalesce(s.impressions, 0)`,
  clicks: sql`coalesce(s.clicks, 0)`,
  ctr: sql`CASE WHEN s.impressions > 0 THEN s.clicks::float8 / s.impressions END`,
};

const adId = integerField("id", 1).refine(Number.isSafeInteger);

export type AdEditor = { siteId: string; userId: number };

/** What the audit log keeps of an ad. */
const snapshot = (ad: AdminHouseAd) => ({
  size: ad.size,
  headline: ad.headline,
  body: ad.body,
  imageUrl: ad.imageUrl,
  targetUrl: ad.targetUrl,
  weight: ad.weight,
  siteId: ad.siteId,
  keywords: ad.keywords,
  startsOn: ad.startsOn,
  endsOn: ad.endsOn,
  active: ad.active,
});

/** `changed` runs after every change, so the serving cache forgets the old ad at once. */
export function createAdConsole(db: Database, options: { changed: () => void; beforeRead: () => Promise<void> }) {
  const select = (where: SQL, tail: SQL = sql``) =>
    db.query<Omit<AdminHouseAd, "ctr">>(sql`
      SELECT a.id, a.slot_size AS size, a.headline, a.body, a.image_url AS "imageUrl", a.target_url AS "targetUrl",
             a.weight, a.site_id AS "siteId", a.keywords, to_char(a.starts_on, 'YYYY-MM-DD') AS "startsOn",
             to_char(a.ends_on, 'YYYY-MM-DD') AS "endsOn", a.active, ${AD_STATUS} AS status,
             coalesce(s.impressions, 0)::bigint AS impressions, coalesce(s.clicks, 0)::bigint AS clicks,
             ${iso(sql`a.created_at`)} AS "createdAt", ${iso(sql`a.updated_at`)} AS "updatedAt"
      FROM house_ads a LEFT JOIN (${RECENT}) s ON s.ad_id = a.id
      WHERE ${where} ${tail}`);
  const withCtr = (ad: Omit<AdminHouseAd, "ctr">): AdminHouseAd => ({ ...ad, ctr: ctrOf(ad.impressions, ad.clicks) });

  async function one(id: number): Promise<AdminHouseAd | undefined> {
    const [ad] = await select(sql`a.id = ${id}`);
    return ad && withCtr(ad);
  }

  const idOf = (raw: unknown) => {
    const parsed = adId.safeParse(raw);
    if (!parsed.success) throw notFound(NOT_FOUND);
    return parsed.data;
  };

  /** The ad's input, checked against the sites served here (a field message when unknown). */
  async function validInput(body: unknown): Promise<AdInput> {
    const input = adInput.parse(body ?? {});
    if (input.siteId) {
      const [site] = await db.query(sql`SELECT 1 FROM sites WHERE id = ${input.siteId}`);
      if (!site)
        throw new z.ZodError([
          { code: "custom", path: ["siteId"], message: "Site is not one of the sites", input: "" },
        ]);
    }
    return input;
  }

  const columns = (input: AdInput) => ({
    site: input.siteId ?? null,
    image: input.imageUrl ?? null,
    ends: input.endsOn ?? null,
    keywords: array(input.keywords),
  });

  return {
    /** One page of house ads, with the last 30 days' impressions, clicks and CTR. */
    async list(query: unknown): Promise<AdminAdList> {
      const filter = adFilter.parse(query ?? {});
      await options.beforeRead();
      const where = allOf(
        filter.size ? sql`a.slot_size = ${filter.size}` : undefined,
        filter.status ? sql`${AD_STATUS} = ${filter.status}` : undefined,
      );
      const list = await listPage(
        db,
        filter.page,
        (limit) => select(where, sql`${orderBy(filter, SORTS, sql`a.id`)} ${limit}`),
        sql`SELECT count(*)::int AS total FROM house_ads a WHERE ${where}`,
      );
      return { ...list, items: list.items.map(withCtr) };
    },

    async get(rawId: unknown): Promise<AdminHouseAd> {
      await options.beforeRead();
      const ad = await one(idOf(rawId));
      if (!ad) throw notFound(NOT_FOUND);
      return ad;
    },

    /** The sites an ad may be limited to (the form's choices). */
    async sites(): Promise<{ id: string; name: string }[]> {
      return db.query(sql`SELECT id, name FROM sites ORDER BY id`);
    },

    async create(editor: AdEditor, body: unknown): Promise<AdminHouseAd> {
      const input = await validInput(body);
      const c = columns(input);
      const id = await db.transaction(async (tx) => {
        const [row] = await tx.query<{ id: number }>(sql`
          INSERT INTO house_ads (site_id, slot_size, headline, body, image_url, target_url, weight, starts_on, ends_on,
                                 keywords)
          VALUES (${c.site}, ${input.size}, ${input.headline}, ${input.body}, ${c.image}, ${input.targetUrl},
                  ${input.weight}, ${input.startsOn}::date, ${c.ends}::date, ${c.keywords}::text[])
          RETURNING id`);
        await recordAudit(tx, {
          siteId: editor.siteId,
          actorId: editor.userId,
          action: "house_ad.create",
          subjectType: "house_ad",
          subjectId: row.id,
          after: { ...input, siteId: c.site, imageUrl: c.image, endsOn: c.ends },
        });
        return row.id;
      });
      options.changed();
      return (await one(id))!;
    },

    /** Saves an edit made from the version `updatedAt`; 409 when the ad changed since, 404 when it is not there. */
    async update(editor: AdEditor, rawId: unknown, body: unknown): Promise<AdminHouseAd> {
      const id = idOf(rawId);
      const { updatedAt } = adUpdatedAt.parse(body ?? {});
      const before = await one(id);
      if (!before) throw notFound(NOT_FOUND);
      const input = await validInput(body);
      const c = columns(input);
      const saved = await db.transaction(async (tx) => {
        const rows = await tx.query(sql`
          UPDATE house_ads SET site_id = ${c.site}, slot_size = ${input.size}, headline = ${input.headline},
            body = ${input.body}, image_url = ${c.image}, target_url = ${input.targetUrl}, weight = ${input.weight},
            starts_on = ${input.startsOn}::date, ends_on = ${c.ends}::date, keywords = ${c.keywords}::text[],
            updated_at = clock_timestamp()
          WHERE id = ${id} AND ${iso(sql`updated_at`)} = ${updatedAt}
          RETURNING id`);
        if (rows.length === 0) return false;
        await recordAudit(tx, {
          siteId: editor.siteId,
          actorId: editor.userId,
          action: "house_ad.update",
          subjectType: "house_ad",
          subjectId: id,
          before: snapshot(before),
          after: { ...snapshot(before), ...input, siteId: c.site, imageUrl: c.image, endsOn: c.ends },
        });
        return true;
      });
      if (!saved) throw new HttpError(409, STALE);
      options.changed();
      return (await one(id))!;
    },

    /** Stops an ad serving for good; retiring a retired ad changes nothing. */
    async retire(editor: AdEditor, rawId: unknown, body: unknown): Promise<AdminHouseAd> {
      const id = idOf(rawId);
      const { updatedAt } = adUpdatedAt.parse(body ?? {});
      const before = await one(id);
      if (!before) throw notFound(NOT_FOUND);
      if (!before.active) return before;
      const saved = await db.transaction(async (tx) => {
        const rows = await tx.query(sql`
          UPDATE house_ads SET active = false, updated_at = clock_timestamp()
          WHERE id = ${id} AND active AND ${iso(sql`updated_at`)} = ${updatedAt}
          RETURNING id`);
        if (rows.length === 0) return false;
        await recordAudit(tx, {
          siteId: editor.siteId,
          actorId: editor.userId,
          action: "house_ad.retire",
          subjectType: "house_ad",
          subjectId: id,
          before: { active: true },
          after: { active: false },
        });
        return true;
      });
      if (!saved) throw new HttpError(409, STALE);
      options.changed();
      return (await one(id))!;
    },
  };
}
