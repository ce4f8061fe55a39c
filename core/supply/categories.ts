// The queue of platform categories (issue #13): the sync records every category
// name a platform sends (platform_categories, unmapped: category_id NULL) and
// gives an offer only the verticals its names are mapped to. Here an admin maps a
// name to a vertical, takes a mapping away, or makes a new vertical from the name
// (core/reference/verticals.ts) and maps to it. Offers change at their source's
// next sync, which resolves names per batch (the changed hash makes the offer
// 'changed'); so a change makes the enabled sources of that platform due now.
// Every change writes its audit row in the same transaction.
import { sql, type Database, type Queryable } from "#db/client.ts";
import { allOf, listPage, orderBy } from "#db/listing.ts";
import {
  platformCategoryFilter,
  platformCategoryMapping,
  verticalFromCategory,
  type PlatformCategory,
  type PlatformCategoryChange,
  type PlatformCategoryPage,
  type VerticalFromCategory,
} from "#contracts/platform-categories.ts";
import { recordAudit } from "#core/audit/audit.ts";
import { badRequest, notFound } from "#core/errors.ts";
import { fieldRefusal, isoTime, type CatalogueEditor } from "#core/networks/editor.ts";
import { likePattern } from "#core/networks/networks.ts";
import { addVertical } from "#core/reference/verticals.ts";

const NOT_FOUND = "Platform category not found";
const BAD_ID = "id must name a platform category as the list gives it (platform:name in base64url)";

/** The table keys on (platform, name); the console's addresses carry both as one id. */
type Key = { platform: string; name: string };

const keyOf = ({ platform, name }: Key) => `${platform}:${Buffer.from(name, "utf8").toString("base64url")}`;

/** The key an id names; anything that is not an id the list could have given is a 400. */
function parseKey(raw: unknown): Key {
  const parts = typeof raw === "string" ? /^([a-z][a-z0-9_-]{0,39}):([A-Za-z0-9_-]{1,2000})$/.exec(raw) : null;
  if (!parts) throw badRequest(BAD_ID);
  const key = { platform: parts[1], name: Buffer.from(parts[2], "base64url").toString("utf8") };
  // Re-encoding refuses what is not the one spelling of a UTF-8 name.
  if (keyOf(key) !== raw) throw badRequest(BAD_ID);
  return key;
}

type Row = Omit<PlatformCategory, "id" | "vertical"> & { categoryId: number | null; verticalName: string | null };

const COLUMNS = sql`
  pc.platform, pc.name, pc.category_id AS "categoryId", c.name AS "verticalName",
  ${isoTime(sql`pc.first_seen`)} AS "firstSeen",
  (SELECT count(*)::int FROM offer_sources s WHERE s.platform = pc.platform AND s.enabled) AS "enabledSources"`;

const FROM = sql`platform_categories pc LEFT JOIN categories c ON c.id = pc.category_id`;

const SORTABLE = {
  firstSeen: sql`pc.first_seen`,
  name: sql`lower(pc.name)`,
  platform: sql`pc.platform`,
  vertical: sql`lower(c.name)`,
};

const shown = ({ categoryId, verticalName, ...row }: Row): PlatformCategory => ({
  id: keyOf(row),
  ...row,
  vertical: categoryId === null ? null : { id: categoryId, name: verticalName ?? "" },
});

/** What an audit row keeps of a category. */
const audited = (c: PlatformCategory) => ({ platform: c.platform, name: c.name, vertical: c.vertical });

export function createPlatformCategories(db: Database, options: { onCatalogueChanged?: () => void } = {}) {
  async function one(q: Queryable, key: Key): Promise<PlatformCategory | undefined> {
    const [row] = await q.query<Row>(
      sql`SELECT ${COLUMNS} FROM ${FROM} WHERE pc.platform = ${key.platform} AND pc.name = ${key.name}`,
    );
    return row && shown(row);
  }

  /** The category locked for a change, or 404. */
  async function locked(tx: Queryable, key: Key): Promise<PlatformCategory> {
    const [row] = await tx.query(
      sql`SELECT 1 FROM platform_categories WHERE platform = ${key.platform} AND name = ${key.name} FOR UPDATE`,
    );
    if (!row) throw notFound(NOT_FOUND);
    return (await one(tx, key))!;
  }

  /** Points `before` at `vertical` (null: unmapped), makes its platform's sources due and audits it. */
  async function remap(
    tx: Queryable,
    editor: CatalogueEditor,
    before: PlatformCategory,
    vertical: { id: number } | null,
  ): Promise<PlatformCategoryChange> {
    if ((before.vertical?.id ?? null) === (vertical?.id ?? null))
      return { category: before, changed: false, sourcesDue: 0 };
    await tx.query(sql`
      UPDATE platform_categories SET category_id = ${vertical?.id ?? null}
      WHERE platform = ${before.platform} AND name = ${before.name}`);
    // Due now, so the scheduler brings the mapping to the offers soon; a source already overdue keeps its place.
    const due = await tx.query(sql`
      UPDATE offer_sources SET next_run_at = least(next_run_at, now())
      WHERE platform = ${before.platform} AND enabled RETURNING id`);
    const after = (await one(tx, before))!;
    await recordAudit(tx, {
      siteId: editor.siteId,
      actorId: editor.userId,
      action: vertical ? "platform_category.map" : "platform_category.unmap",
      subjectType: "platform_category",
      // The table has no numeric id: the audit row names the category in before and after.
      subjectId: null,
      before: audited(before),
      after: { ...audited(after), sourcesDue: due.length },
    });
    return { category: after, changed: true, sourcesDue: due.length };
  }

  return {
    /** One page of the queue: unmapped by default, or mapped, or all; by platform and name. */
    async list(rawFilter: unknown): Promise<PlatformCategoryPage> {
      const filter = platformCategoryFilter.parse(rawFilter ?? {});
      const where = allOf(
        filter.view === "unmapped" ? sql`pc.category_id IS NULL` : undefined,
        filter.view === "mapped" ? sql`pc.category_id IS NOT NULL` : undefined,
        filter.platform ? sql`pc.platform = ${filter.platform}` : undefined,
        filter.search ? sql`lower(pc.name) LIKE ${likePattern(filter.search)}` : undefined,
      );
      const page = await listPage(
        db,
        filter.page,
        (limit) =>
          db.query<Row>(
            sql`SELECT ${COLUMNS} FROM ${FROM} WHERE ${where}
                ${orderBy(filter, SORTABLE, sql`pc.platform, pc.name`)} ${limit}`,
          ),
        sql`SELECT count(*)::int AS total FROM platform_categories pc WHERE ${where}`,
      );
      return { ...page, items: page.items.map(shown) };
    },

    /** Categories waiting for a mapping (the dashboard's count). */
    async unmappedCount(): Promise<number> {
      const [row] = await db.query<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM platform_categories WHERE category_id IS NULL`,
      );
      return row.n;
    },

    /** The verticals a category may be mapped to, by name (the console's choice). */
    verticalChoices: () =>
      db.query<{ id: number; name: string }>(sql`SELECT id, name FROM categories ORDER BY lower(name), id`),

    /** Maps a category to the vertical `categoryId`, or unmaps it (`categoryId: null`). */
    async map(editor: CatalogueEditor, rawId: unknown, body: unknown): Promise<PlatformCategoryChange> {
      const key = parseKey(rawId);
      const { categoryId } = platformCategoryMapping.parse(body ?? {});
      return db.transaction(async (tx) => {
        const before = await locked(tx, key);
        if (categoryId === null) return remap(tx, editor, before, null);
        // Held until commit, so a merge cannot remove the vertical under the mapping.
        const [vertical] = await tx.query<{ id: number }>(
          sql`SELECT id FROM categories WHERE id = ${categoryId} FOR KEY SHARE`,
        );
        if (!vertical) throw fieldRefusal("categoryId", `There is no vertical with id ${categoryId}`);
        return remap(tx, editor, before, vertical);
      });
    },

    /** Makes a vertical named `name` (the category's own name, tidied) and maps the category to it. */
    async createVertical(editor: CatalogueEditor, rawId: unknown, body: unknown): Promise<VerticalFromCategory> {
      const key = parseKey(rawId);
      const { name } = verticalFromCategory.parse(body ?? {});
      const result = await db.transaction(async (tx) => {
        const before = await locked(tx, key);
        const vertical = await addVertical(tx, editor, name);
        return { ...(await remap(tx, editor, before, vertical)), vertical };
      });
      // A new vertical shows in the cached category lists at once.
      options.onCatalogueChanged?.();
      return result;
    },
  };
}
