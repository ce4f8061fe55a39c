// Third-party tags per site (docs/decisions/0014): the console edits them, every
// page reads them (briefly cached per site, cleared on a save here; another
// instance sees a save within the cache's life). A save names the `updatedAt` it
// was made from; if someone saved in between, it answers 409 instead of overwriting.
import { sql, type Database, type Queryable, type SQL } from "#db/client.ts";
import type { AdSize } from "#contracts/ads.ts";
import { hasTags, siteTagsInput, type PageTags, type SiteTags } from "#contracts/tags.ts";
import { createCache } from "#core/cache/cache.ts";
import { recordAudit } from "#core/audit/audit.ts";
import { HttpError } from "#core/errors.ts";

const STALE = "Someone else changed the tag settings; reload them and try again";

/** Timestamps to the microsecond, so an `updatedAt` read back compares exactly. */
const iso = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

const UNSET: SiteTags = {
  analyticsId: null,
  pixelId: null,
  gptNetworkCode: null,
  gptSlots: {},
  consentRequired: true,
  updatedAt: null,
};

export type TagEditor = { siteId: string; userId: number };

export function createSiteTagService(db: Database) {
  // Every page asks; the settings change rarely. A miss (no tags) is cached as well.
  const cache = createCache<{ page: PageTags | null }>({ ttlMs: 30_000, max: 100 });

  async function read(q: Queryable, siteId: string): Promise<SiteTags> {
    const [row] = await q.query<SiteTags>(sql`
      SELECT analytics_id AS "analyticsId", pixel_id AS "pixelId", gpt_network_code AS "gptNetworkCode",
             gpt_slots AS "gptSlots", consent_required AS "consentRequired", ${iso(sql`updated_at`)} AS "updatedAt"
      FROM site_tags WHERE site_id = ${siteId}`);
    return row ?? UNSET;
  }
  const get = (siteId: string) => read(db, siteId);

  return {
    /** The settings as the console edits them (all empty before the first save). */
    get,

    /** What the pages load: the configured tags with full ad unit paths, or null when none is configured. */
    async forPage(siteId: string): Promise<PageTags | null> {
      const { page } = await cache.get(siteId, async () => ({ page: pageTags(await get(siteId)) }));
      return page;
    },

    /** Saves the settings made from the version `updatedAt`; 409 when they changed since. */
    async save(editor: TagEditor, body: unknown): Promise<SiteTags> {
      const input = siteTagsInput.parse(body ?? {});
      const values = {
        analyticsId: input.analyticsId,
        pixelId: input.pixelId,
        gptNetworkCode: input.gptNetworkCode,
        gptSlots: input.gptSlots,
        consentRequired: input.consentRequired,
      };
      const saved = await db.transaction(async (tx) => {
        const before = await read(tx, editor.siteId);
        const slots = JSON.stringify(values.gptSlots);
        // The first save inserts (a concurrent first save loses); later ones match the version seen.
        const rows =
          input.updatedAt === null
            ? await tx.query(sql`
                INSERT INTO site_tags (site_id, analytics_id, pixel_id, gpt_network_code, gpt_slots, consent_required, updated_at)
                VALUES (${editor.siteId}, ${values.analyticsId}, ${values.pixelId}, ${values.gptNetworkCode},
                        ${slots}::jsonb, ${values.consentRequired}, clock_timestamp())
                ON CONFLICT (site_id) DO NOTHING
                RETURNING site_id`)
            : await tx.query(sql`
                UPDATE site_tags SET analytics_id = ${values.analyticsId}, pixel_id = ${values.pixelId},
                       gpt_network_code = ${values.gptNetworkCode}, gpt_slots = ${slots}::jsonb,
                       consent_required = ${values.consentRequired}, updated_at = clock_timestamp()
                WHERE site_id = ${editor.siteId} AND ${iso(sql`updated_at`)} = ${input.updatedAt}
                RETURNING site_id`);
        if (rows.length === 0) return false;
        const { updatedAt: _seen, ...previous } = before;
        await recordAudit(tx, {
          siteId: editor.siteId,
          actorId: editor.userId,
          action: "tags.update",
          subjectType: "site_tags",
          subjectId: null,
          before: previous,
          after: values,
        });
        return true;
      });
      if (!saved) throw new HttpError(409, STALE);
      cache.clear();
      return get(editor.siteId);
    },
  };
}

/** The page's view: only configured tags, each slot's full ad unit path. */
function pageTags(tags: SiteTags): PageTags | null {
  const network = tags.gptNetworkCode;
  const gptSlots: Partial<Record<AdSize, string>> = {};
  if (network) {
    for (const [size, unit] of Object.entries(tags.gptSlots) as [AdSize, string][]) {
      if (unit) gptSlots[size] = `/${network}/${unit}`;
    }
  }
  const page = {
    analyticsId: tags.analyticsId,
    pixelId: tags.pixelId,
    gptSlots,
    consentRequired: tags.consentRequired,
  };
  return hasTags(page) ? page : null;
}
