// The console's traffic source editor: create, edit every field, retire and
// restore, with the same rules as the network editor (core/networks/editor.ts):
// a stale `updatedAt` answers 409, audit rows in the change's transaction.
import { z } from "zod";
import { array, sql, type Database, type Queryable } from "#db/client.ts";
import { allOf, listPage, orderBy } from "#db/listing.ts";
import type { AdminList } from "#contracts/admin.ts";
import type { AdminTrafficSource, CatalogueStatus, TrafficSourceFilter } from "#contracts/catalogue.ts";
import { integerField, requiredText } from "#contracts/validation.ts";
import { recordAudit } from "#core/audit/audit.ts";
import { HttpError, notFound } from "#core/errors.ts";
import { likePattern } from "#core/networks/networks.ts";
import {
  fieldRefusal,
  flag,
  isoTime,
  optionalAddress,
  optionalAmount,
  optionalLine,
  seenVersion,
  slugField,
  slugOf,
  staleEdit,
  textList,
  type CatalogueEditor,
} from "#core/networks/editor.ts";

const trafficSourceFields = {
  name: requiredText("Name", 200),
  slug: slugField(),
  description: optionalLine("Description", 5000),
  website: optionalAddress("Website"),
  logoUrl: optionalAddress("Logo URL", { localPath: true }),
  featured: flag("Featured").default(false),
  adFormats: textList("Ad formats"),
  pricingModels: textList("Pricing models"),
  minimumDeposit: optionalAmount("Minimum deposit").default(null),
  // Country codes: "US, DE" or a list; checked against the countries table.
  geos: textList("Geos", 300, 2).transform((codes) => codes.map((c) => c.toUpperCase())),
};
const trafficSourceCreate = z.object(trafficSourceFields);
const trafficSourceUpdate = z.object(trafficSourceFields).partial().extend({ updatedAt: seenVersion });
type TrafficSourceInput = z.output<typeof trafficSourceCreate> & { slug: string };

const ADMIN_COLUMNS = sql`
  t.id, t.name, t.slug, t.description, t.website, t.logo_url AS "logoUrl", t.featured, t.ad_formats AS "adFormats",
  t.pricing_models AS "pricingModels", t.minimum_deposit AS "minimumDeposit", t.geos, t.status,
  CASE WHEN t.retired_at IS NULL THEN NULL ELSE ${isoTime(sql`t.retired_at`)} END AS "retiredAt",
  ${isoTime(sql`t.created_at`)} AS "createdAt", ${isoTime(sql`t.updated_at`)} AS "updatedAt"`;

const SORTABLE = { name: sql`lower(t.name)`, updatedAt: sql`t.updated_at`, status: sql`t.status` };

const audited = ({ id: _id, retiredAt: _r, createdAt: _c, updatedAt: _u, ...fields }: AdminTrafficSource) => fields;

const NOT_FOUND = "Traffic source not found";
const parseId = (raw: unknown) => {
  const id = integerField("id", 1).safeParse(raw);
  if (!id.success || id.data > 2_147_483_647) throw notFound(NOT_FOUND);
  return id.data;
};

/** `onChange` runs after every saved change: cached pages built before it are forgotten. */
export function createTrafficSourceEditor(db: Database, options: { onChange?: () => void } = {}) {
  /** The saved record, once the change is committed and announced. */
  const announced = async <T>(saving: Promise<T>) => {
    const saved = await saving;
    options.onChange?.();
    return saved;
  };

  async function one(q: Queryable, id: number): Promise<AdminTrafficSource | undefined> {
    const [row] = await q.query<AdminTrafficSource>(
      sql`SELECT ${ADMIN_COLUMNS} FROM traffic_sources t WHERE t.id = ${id}`,
    );
    return row;
  }

  async function check(q: Queryable, input: TrafficSourceInput, id: number | null) {
    const [taken] = await q.query(
      sql`SELECT 1 FROM traffic_sources WHERE slug = ${input.slug} AND id IS DISTINCT FROM ${id} LIMIT 1`,
    );
    if (taken) throw fieldRefusal("slug", `The slug ${input.slug} is already used by another traffic source`);
    if (input.geos.length) {
      const known = await q.query<{ code: string }>(
        sql`SELECT code FROM countries WHERE code = ANY(${array(input.geos)}::text[])`,
      );
      const unknown = input.geos.find((g) => !known.some((k) => k.code === g));
      if (unknown !== undefined) throw fieldRefusal("geos", `${unknown} is not a country code`);
    }
  }

  async function write(tx: Queryable, id: number, input: TrafficSourceInput) {
    await tx.query(sql`
      UPDATE traffic_sources SET name = ${input.name}, slug = ${input.slug}, description = ${input.description ?? ""},
        website = ${input.website ?? null}, logo_url = ${input.logoUrl ?? null}, featured = ${input.featured},
        ad_formats = ${array(input.adFormats)}::text[], pricing_models = ${array(input.pricingModels)}::text[],
        minimum_deposit = ${input.minimumDeposit}, geos = ${array(input.geos)}::text[], updated_at = clock_timestamp()
      WHERE id = ${id}`);
  }

  async function move(
    editor: CatalogueEditor,
    rawId: unknown,
    body: unknown,
    change: { action: string; to: "retired" | "active"; notAllowed: (s: CatalogueStatus) => string | undefined },
  ) {
    const id = parseId(rawId);
    const { updatedAt } = z.object({ updatedAt: seenVersion.optional() }).parse(body ?? {});
    return announced(
      db.transaction(async (tx) => {
        const before = await one(tx, id);
        if (!before) throw notFound(NOT_FOUND);
        if (updatedAt !== undefined && updatedAt !== before.updatedAt) throw staleEdit("traffic source");
        const refusal = change.notAllowed(before.status);
        if (refusal) throw new HttpError(409, refusal);
        const rows = await tx.query(sql`
        UPDATE traffic_sources SET status = ${change.to},
          retired_at = CASE WHEN ${change.to} = 'retired' THEN clock_timestamp() END, updated_at = clock_timestamp()
        WHERE id = ${id} AND ${isoTime(sql`updated_at`)} = ${before.updatedAt} RETURNING id`);
        if (rows.length === 0) throw staleEdit("traffic source");
        const after = (await one(tx, id))!;
        await recordAudit(tx, {
          siteId: editor.siteId,
          actorId: editor.userId,
          action: change.action,
          subjectType: "traffic_source",
          subjectId: id,
          before: { status: before.status },
          after: { status: after.status },
        });
        return after;
      }),
    );
  }

  return {
    async list(filter: TrafficSourceFilter): Promise<AdminList<AdminTrafficSource>> {
      const where = allOf(
        filter.status ? sql`t.status = ${filter.status}` : undefined,
        filter.search
          ? sql`(lower(t.name) LIKE ${likePattern(filter.search)} OR t.slug LIKE ${likePattern(filter.search)})`
          : undefined,
      );
      return listPage(
        db,
        filter.page,
        (limit) =>
          db.query<AdminTrafficSource>(sql`
            SELECT ${ADMIN_COLUMNS} FROM traffic_sources t WHERE ${where} ${orderBy(filter, SORTABLE, sql`t.id`)} ${limit}`),
        sql`SELECT count(*)::int AS total FROM traffic_sources t WHERE ${where}`,
      );
    },

    async get(rawId: unknown): Promise<AdminTrafficSource> {
      const found = await one(db, parseId(rawId));
      if (!found) throw notFound(NOT_FOUND);
      return found;
    },

    async create(editor: CatalogueEditor, body: unknown): Promise<AdminTrafficSource> {
      const parsed = trafficSourceCreate.parse(body ?? {});
      const input = { ...parsed, slug: parsed.slug ?? slugOf(parsed.name) };
      return announced(
        db.transaction(async (tx) => {
          await check(tx, input, null);
          const [{ id }] = await tx.query<{ id: number }>(
            sql`INSERT INTO traffic_sources (slug, name) VALUES (${input.slug}, ${input.name}) RETURNING id`,
          );
          await write(tx, id, input);
          const after = (await one(tx, id))!;
          await recordAudit(tx, {
            siteId: editor.siteId,
            actorId: editor.userId,
            action: "traffic_source.create",
            subjectType: "traffic_source",
            subjectId: id,
            after: audited(after),
          });
          return after;
        }),
      );
    },

    /** Saves the fields sent over the version `updatedAt`; 409 when it changed since. */
    async update(editor: CatalogueEditor, rawId: unknown, body: unknown): Promise<AdminTrafficSource> {
      const id = parseId(rawId);
      const { updatedAt, ...changes } = trafficSourceUpdate.parse(body ?? {});
      return announced(
        db.transaction(async (tx) => {
          const [locked] = await tx.query(sql`SELECT 1 FROM traffic_sources WHERE id = ${id} FOR UPDATE`);
          const before = locked ? await one(tx, id) : undefined;
          if (!before) throw notFound(NOT_FOUND);
          if (before.updatedAt !== updatedAt) throw staleEdit("traffic source");
          const input: TrafficSourceInput = {
            ...audited(before),
            website: before.website ?? undefined,
            logoUrl: before.logoUrl ?? undefined,
          };
          // A field sent empty clears it; a field not sent keeps its value.
          const sent = (key: string) => Object.hasOwn(body as object, key);
          for (const [key, value] of Object.entries(changes)) if (sent(key)) Object.assign(input, { [key]: value });
          input.slug = changes.slug ?? (sent("slug") ? slugOf(input.name) : before.slug);
          await check(tx, input, id);
          await write(tx, id, input);
          const after = (await one(tx, id))!;
          await recordAudit(tx, {
            siteId: editor.siteId,
            actorId: editor.userId,
            action: "traffic_source.update",
            subjectType: "traffic_source",
            subjectId: id,
            before: audited(before),
            after: audited(after),
          });
          return after;
        }),
      );
    },

    retire: (editor: CatalogueEditor, rawId: unknown, body: unknown) =>
      move(editor, rawId, body, {
        action: "traffic_source.retire",
        to: "retired",
        notAllowed: (s) => (s === "retired" ? "This traffic source is already retired" : undefined),
      }),

    restore: (editor: CatalogueEditor, rawId: unknown, body: unknown) =>
      move(editor, rawId, body, {
        action: "traffic_source.restore",
        to: "active",
        notAllowed: (s) => (s === "retired" ? undefined : "Only a retired traffic source can be restored"),
      }),
  };
}
