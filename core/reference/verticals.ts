// The console's verticals (the `categories` table): list, rename, and merge one
// into another. A merge moves every offer of the merged vertical to the one it
// joins and removes the merged one in one transaction, so no offer is ever left
// without it; an old link or filter naming the removed vertical simply matches
// nothing (an empty list or a 404 feed), never a 500.
import { z } from "zod";
import { sql, type Database, type Queryable } from "#db/client.ts";
import { listPage, orderBy } from "#db/listing.ts";
import type { AdminList } from "#contracts/admin.ts";
import type { AdminVertical, VerticalFilter } from "#contracts/catalogue.ts";
import { integerField, requiredText } from "#contracts/validation.ts";
import { recordAudit } from "#core/audit/audit.ts";
import { notFound } from "#core/errors.ts";
import { likePattern } from "#core/networks/networks.ts";
import {
  fieldRefusal,
  flag,
  isoTime,
  seenVersion,
  slugField,
  slugOf,
  staleEdit,
  type CatalogueEditor,
} from "#core/networks/editor.ts";

const verticalRename = z.object({
  updatedAt: seenVersion,
  name: requiredText("Name", 100),
  slug: slugField(),
  top: flag("Top").optional(),
});

const verticalMerge = z.object({
  intoId: integerField("intoId", 1).refine((n) => n <= 2_147_483_647, "intoId must name a vertical"),
  updatedAt: seenVersion.optional(),
});

const COLUMNS = sql`
  c.id, c.name, c.slug, c.top,
  c.offer_count AS "offerCount",
  ${isoTime(sql`c.updated_at`)} AS "updatedAt"`;

const SORTABLE = {
  name: sql`lower(c.name)`,
  offerCount: sql`"offerCount"`,
  updatedAt: sql`c.updated_at`,
};

/** The offers of a vertical, locked in id order so that two edits touching the same offers cannot deadlock. */
const offersOf = (id: number) =>
  sql`SELECT o.id FROM offers o WHERE o.category_ids && ARRAY[${id}]::int[] ORDER BY o.id FOR UPDATE`;

const NOT_FOUND = "Vertical not found";
const parseId = (raw: unknown) => {
  const id = integerField("id", 1).safeParse(raw);
  if (!id.success || id.data > 2_147_483_647) throw notFound(NOT_FOUND);
  return id.data;
};

/**
 * Adds a vertical (its slug made from the name) with its audit row, in the caller's
 * transaction, so a change that needs a new vertical (mapping a platform category
 * to it, core/supply/categories.ts) keeps both or neither. Refuses, as `field`, a
 * name or slug another vertical has; the caller runs `onChange` after its commit.
 */
export async function addVertical(
  tx: Queryable,
  editor: CatalogueEditor,
  name: string,
  field = "name",
): Promise<AdminVertical> {
  const slug = slugOf(name);
  const [clash] = await tx.query<{ name: string }>(sql`
    SELECT name FROM categories WHERE lower(name) = ${name.toLowerCase()} OR slug = ${slug}
    ORDER BY (lower(name) = ${name.toLowerCase()}) DESC LIMIT 1`);
  if (clash?.name.toLowerCase() === name.toLowerCase())
    throw fieldRefusal(field, `${clash.name} is already the name of a vertical`);
  if (clash) throw fieldRefusal(field, `The slug ${slug} is already used by the vertical ${clash.name}`);
  // A concurrent add of the same name or slug inserts nothing here rather than failing the transaction.
  const [added] = await tx.query<{ id: number }>(sql`
    INSERT INTO categories (name, slug) VALUES (${name}, ${slug}) ON CONFLICT DO NOTHING RETURNING id`);
  if (!added) throw fieldRefusal(field, `${name} is already the name of a vertical`);
  const [vertical] = await tx.query<AdminVertical>(sql`SELECT ${COLUMNS} FROM categories c WHERE c.id = ${added.id}`);
  await recordAudit(tx, {
    siteId: editor.siteId,
    actorId: editor.userId,
    action: "vertical.create",
    subjectType: "vertical",
    subjectId: added.id,
    after: { name: vertical.name, slug: vertical.slug, top: vertical.top },
  });
  return vertical;
}

/** `onChange` runs after every saved change: cached category lists forget their copies. */
export function createVerticalEditor(db: Database, options: { onChange?: () => void } = {}) {
  const changed = () => options.onChange?.();

  async function one(q: Queryable, id: number, lock = false): Promise<AdminVertical | undefined> {
    if (lock) {
      const [locked] = await q.query(sql`SELECT 1 FROM categories WHERE id = ${id} FOR UPDATE`);
      if (!locked) return undefined;
    }
    const [row] = await q.query<AdminVertical>(sql`SELECT ${COLUMNS} FROM categories c WHERE c.id = ${id}`);
    return row;
  }

  return {
    async list(filter: VerticalFilter): Promise<AdminList<AdminVertical>> {
      const where = filter.search
        ? sql`(lower(c.name) LIKE ${likePattern(filter.search)} OR c.slug LIKE ${likePattern(filter.search)})`
        : sql`true`;
      const list = await listPage(
        db,
        filter.page,
        (limit) =>
          db.query<AdminVertical>(sql`
            SELECT * FROM (SELECT ${COLUMNS}, c.updated_at FROM categories c WHERE ${where}) c
            ${orderBy(filter, SORTABLE, sql`c.id`)} ${limit}`),
        sql`SELECT count(*)::int AS total FROM categories c WHERE ${where}`,
      );
      // The subquery's own updated_at column (for sorting) is not part of the answer.
      const items = list.items.map(({ id, name, slug, top, offerCount, updatedAt }) => ({
        id,
        name,
        slug,
        top,
        offerCount,
        updatedAt,
      }));
      return { ...list, items };
    },

    async get(rawId: unknown): Promise<AdminVertical> {
      const found = await one(db, parseId(rawId));
      if (!found) throw notFound(NOT_FOUND);
      return found;
    },

    /** Renames a vertical (and its slug, made from the new name unless given); 409 when it changed since `updatedAt`. */
    async rename(editor: CatalogueEditor, rawId: unknown, body: unknown): Promise<AdminVertical> {
      const id = parseId(rawId);
      const input = verticalRename.parse(body ?? {});
      const slug = input.slug ?? slugOf(input.name);
      const saved = await db.transaction(async (tx) => {
        const before = await one(tx, id, true);
        if (!before) throw notFound(NOT_FOUND);
        if (before.updatedAt !== input.updatedAt) throw staleEdit("vertical");
        const [clash] = await tx.query<{ name: string; slug: string }>(sql`
          SELECT name, slug FROM categories
          WHERE id <> ${id} AND (lower(name) = ${input.name.toLowerCase()} OR slug = ${slug}) LIMIT 1`);
        if (clash?.slug === slug) throw fieldRefusal("slug", `The slug ${slug} is already used by another vertical`);
        if (clash) throw fieldRefusal("name", `${input.name} is already the name of another vertical`);
        await tx.query(sql`
          UPDATE categories SET name = ${input.name}, slug = ${slug}, top = coalesce(${input.top ?? null}, top),
            updated_at = clock_timestamp()
          WHERE id = ${id}`);
        // The offers' search text holds their verticals' names: rebuild it (the trigger runs on category_ids).
        if (input.name !== before.name)
          await tx.query(sql`UPDATE offers SET category_ids = category_ids WHERE id IN (${offersOf(id)})`);
        const after = (await one(tx, id))!;
        await recordAudit(tx, {
          siteId: editor.siteId,
          actorId: editor.userId,
          action: "vertical.rename",
          subjectType: "vertical",
          subjectId: id,
          before: { name: before.name, slug: before.slug, top: before.top },
          after: { name: after.name, slug: after.slug, top: after.top },
        });
        return after;
      });
      changed();
      return saved;
    },

    /**
     * Moves every offer of vertical `rawId` into `intoId` (an offer in both keeps one) and
     * removes `rawId`; answers the vertical that remains and how many offers moved.
     */
    async merge(
      editor: CatalogueEditor,
      rawId: unknown,
      body: unknown,
    ): Promise<{ into: AdminVertical; offersMoved: number }> {
      const id = parseId(rawId);
      const input = verticalMerge.parse(body ?? {});
      if (input.intoId === id) throw fieldRefusal("intoId", "A vertical cannot be merged into itself");
      const result = await db.transaction(async (tx) => {
        // Both rows locked in id order, so two merges of the same pair cannot deadlock.
        const [first, second] = id < input.intoId ? [id, input.intoId] : [input.intoId, id];
        await one(tx, first, true);
        await one(tx, second, true);
        const merged = await one(tx, id);
        if (!merged) throw notFound(NOT_FOUND);
        if (input.updatedAt !== undefined && input.updatedAt !== merged.updatedAt) throw staleEdit("vertical");
        const into = await one(tx, input.intoId);
        if (!into) throw fieldRefusal("intoId", "The vertical to merge into does not exist");
        const moved = await tx.query<{ id: number }>(sql`
          UPDATE offers o SET category_ids = ARRAY(
              SELECT x FROM unnest(array_replace(o.category_ids, ${id}::int, ${input.intoId}::int)) WITH ORDINALITY u(x, i)
              GROUP BY x ORDER BY min(i)),
            updated_at = clock_timestamp()
          WHERE o.id IN (${offersOf(id)})
          RETURNING o.id`);
        await tx.query(sql`DELETE FROM categories WHERE id = ${id}`);
        if (merged.top && !into.top) await tx.query(sql`UPDATE categories SET top = true WHERE id = ${input.intoId}`);
        await tx.query(sql`UPDATE categories SET updated_at = clock_timestamp() WHERE id = ${input.intoId}`);
        await recordAudit(tx, {
          siteId: editor.siteId,
          actorId: editor.userId,
          action: "vertical.merge",
          subjectType: "vertical",
          subjectId: id,
          before: { name: merged.name, slug: merged.slug, top: merged.top, offerCount: merged.offerCount },
          after: { mergedInto: { id: into.id, name: into.name }, offersMoved: moved.length },
        });
        return { into: (await one(tx, input.intoId))!, offersMoved: moved.length };
      });
      changed();
      return result;
    },
  };
}
