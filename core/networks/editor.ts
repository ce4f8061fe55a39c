// The console's network editor: create, edit every field and the listing per
// site, retire and restore. An edit names the `updatedAt` it was made from and
// answers 409 when someone saved in between; every change writes its audit row
// in the same transaction. Retired networks keep their row (old links answer
// 410) but leave every public list, which all read status = 'active'.
import { z } from "zod";
import { array, sql, type Database, type Queryable, type SQL } from "#db/client.ts";
import { allOf, listPage, orderBy } from "#db/listing.ts";
import type { AdminList } from "#contracts/admin.ts";
import type { AdminNetwork, CatalogueStatus, NetworkFilter } from "#contracts/catalogue.ts";
import { integerField, messages, requiredText } from "#contracts/validation.ts";
import { recordAudit } from "#core/audit/audit.ts";
import { HttpError, notFound } from "#core/errors.ts";
import { likePattern } from "./networks.ts";

/** Who makes a console change, and on which site's console. */
export type CatalogueEditor = { siteId: string; userId: number };

/** Timestamps to the microsecond, so an `updatedAt` read back compares exactly. */
export const isoTime = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** A field's refusal shown beside that field (a form) or as the answer's message (the API). */
export const fieldRefusal = (field: string, message: string) =>
  new z.ZodError([{ code: "custom", path: [field], message, input: undefined }]);

export const staleEdit = (what: string) =>
  new HttpError(409, `Someone else changed this ${what}; reload it and try again`);

// ----------------------------------------------------------------- input rules

const blankToUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);

/** Optional text; empty means none. */
export const optionalLine = (field: string, max: number) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ error: `${field} must be text` })
      .trim()
      .max(max, `${field} must be at most ${max} characters long`)
      .optional(),
  );

/** An http(s) address, or a path on this site (approved logos are served from /media/…). */
export const optionalAddress = (field: string, { localPath = false } = {}) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ error: `${field} must be text` })
      .trim()
      .max(2000, `${field} must be at most 2000 characters long`)
      .refine(
        (v) => {
          if (localPath && /^\/[^/\\]/.test(v)) return true;
          try {
            const u = new URL(v);
            return (u.protocol === "http:" || u.protocol === "https:") && u.hostname.includes(".");
          } catch {
            return false;
          }
        },
        { error: (i) => messages.url(String(i.input)) },
      )
      .optional(),
  );

/** A list typed as one line ("PayPal, Wire") or sent as an array (of such lines); blanks are dropped. */
export const textList = (field: string, maxItems = 30, maxLength = 60) =>
  z.preprocess(
    (v) => {
      const lines = typeof v === "string" ? [v] : Array.isArray(v) && v.every((s) => typeof s === "string") ? v : null;
      if (!lines) return v ?? [];
      return lines
        .flatMap((line) => line.split(","))
        .map((s) => s.trim())
        .filter(Boolean);
    },
    z
      .array(
        z
          .string({ error: `${field} must be a list of text` })
          .trim()
          .min(1, `${field} cannot hold an empty value`)
          .max(maxLength, `${field} values must be at most ${maxLength} characters long`),
        { error: `${field} must be a list of text` },
      )
      .max(maxItems, `${field} can hold at most ${maxItems} values`)
      .transform((items) => [...new Set(items)]),
  );

/** true/false, or a checkbox's "on". */
export const flag = (field: string) =>
  z.preprocess(
    (v) => (v === "on" || v === "true" ? true : v === "false" || v === "" ? false : v),
    z.boolean({ error: `${field} must be true or false` }),
  );

/** An amount of money, 0 or more, with at most two decimals; empty means none. */
export const optionalAmount = (field: string) =>
  z.preprocess(
    (v) => {
      if (v === "" || v === null || v === undefined) return null;
      if (typeof v === "string" && /^[0-9]{1,10}(\.[0-9]{1,2})?$/.test(v.trim())) return Number(v.trim());
      return v;
    },
    z
      .number({ error: `${field} must be an amount such as 100 or 99.50` })
      .min(0, messages.minValue(field, 0))
      .max(9_999_999_999, `${field} is too large`)
      .refine((n) => Math.round(n * 100) === n * 100, `${field} must have at most two decimals`)
      .nullable(),
  );

export const slugField = (field = "Slug") =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ error: `${field} must be text` })
      .trim()
      .toLowerCase()
      .max(120, `${field} must be at most 120 characters long`)
      .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, `${field} can only contain lowercase letters, digits and single dashes`)
      .optional(),
  );

/** The slug a name gives when none is typed. */
export function slugOf(name: string): string {
  const slug = name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 100)
    .replace(/-+$/, "");
  return slug || "listing";
}

/** The `updatedAt` an edit was made from. */
export const seenVersion = z.string({ error: "updatedAt is required" }).min(1, "updatedAt is required").max(40);

/** An optional `updatedAt` (retire and restore accept one to refuse a stale click). */
const optionalVersion = z.object({ updatedAt: seenVersion.optional() });

const displayOrder = z.preprocess(
  blankToUndefined,
  integerField("Order", 1)
    .refine((n) => n <= 10_000, "Order must be at most 10000")
    .optional(),
);

const propertyInput = z.object({
  identifier: requiredText("Site", 60),
  joiningLink: optionalAddress("Joining link"),
  paidAccount: flag("Paid account").default(false),
  displayOrder,
});

const networkFields = {
  name: requiredText("Name", 200),
  slug: slugField(),
  description: optionalLine("Description", 5000),
  logoUrl: optionalAddress("Logo URL", { localPath: true }),
  website: optionalAddress("Website"),
  featured: flag("Featured").default(false),
  paymentTerms: optionalLine("Payment terms", 100),
  paymentMethods: textList("Payment methods"),
  minimumPayment: optionalAmount("Minimum payment").default(null),
  trackingPlatform: optionalLine("Tracking platform", 100),
  commissionTypes: textList("Commission types"),
  properties: z
    .array(propertyInput, { error: "properties must be a list of site listings" })
    .max(50, "properties can hold at most 50 sites")
    .default([]),
};

const networkCreate = z.object(networkFields);
/** An edit names only what changes, and the version it was made from. */
const networkUpdate = z.object(networkFields).partial().extend({ updatedAt: seenVersion });

type NetworkInput = z.output<typeof networkCreate>;

// ----------------------------------------------------------------- what the console sees

const ADMIN_COLUMNS = sql`
  n.id, n.name, n.slug, n.description, n.logo_url AS "logoUrl", n.website, n.featured,
  n.payment_terms AS "paymentTerms", n.payment_methods AS "paymentMethods", n.minimum_payment AS "minimumPayment",
  n.tracking_platform AS "trackingPlatform", n.commission_types AS "commissionTypes", n.status,
  n.offer_count AS "offerCount", n.review_count AS "reviewCount",
  coalesce((SELECT jsonb_agg(jsonb_build_object('identifier', p.identifier, 'joiningLink', p.joining_link,
              'paidAccount', p.paid_account, 'displayOrder', p.display_order, 'offerCount', p.offer_count)
              ORDER BY p.identifier)
            FROM network_properties p WHERE p.network_id = n.id), '[]'::jsonb) AS properties,
  CASE WHEN n.retired_at IS NULL THEN NULL ELSE ${isoTime(sql`n.retired_at`)} END AS "retiredAt",
  ${isoTime(sql`n.created_at`)} AS "createdAt", ${isoTime(sql`n.updated_at`)} AS "updatedAt"`;

const SORTABLE = {
  name: sql`lower(n.name)`,
  updatedAt: sql`n.updated_at`,
  offerCount: sql`n.offer_count`,
  reviewCount: sql`n.review_count`,
  status: sql`n.status`,
};

/** The values an audit row keeps (everything an editor can change). */
const audited = (n: AdminNetwork) => ({
  name: n.name,
  slug: n.slug,
  description: n.description,
  logoUrl: n.logoUrl,
  website: n.website,
  featured: n.featured,
  paymentTerms: n.paymentTerms,
  paymentMethods: n.paymentMethods,
  minimumPayment: n.minimumPayment,
  trackingPlatform: n.trackingPlatform,
  commissionTypes: n.commissionTypes,
  status: n.status,
  properties: n.properties.map(({ identifier, joiningLink, paidAccount, displayOrder }) => ({
    identifier,
    joiningLink,
    paidAccount,
    displayOrder,
  })),
});

const NOT_FOUND = "Network not found";
const parseId = (raw: unknown) => {
  const id = integerField("id", 1).safeParse(raw);
  if (!id.success || !Number.isSafeInteger(id.data)) throw notFound(NOT_FOUND);
  return id.data;
};

/**
 * `onChange` runs after every saved change: the caches of public lists built
 * from networks (filter options, sidebars) forget their copies.
 */
export function createNetworkEditor(db: Database, options: { onChange?: () => void } = {}) {
  const changed = () => options.onChange?.();

  async function one(q: Queryable, id: number): Promise<AdminNetwork | undefined> {
    const [row] = await q.query<AdminNetwork>(sql`SELECT ${ADMIN_COLUMNS} FROM networks n WHERE n.id = ${id}`);
    return row;
  }

  /** Refuses what the database would: a slug in use, a site that does not exist, a site named twice. */
  async function check(q: Queryable, input: NetworkInput & { slug: string }, id: number | null) {
    const [taken] = await q.query(
      sql`SELECT 1 FROM networks WHERE slug = ${input.slug} AND id IS DISTINCT FROM ${id} LIMIT 1`,
    );
    if (taken) throw fieldRefusal("slug", `The slug ${input.slug} is already used by another network`);
    const identifiers = input.properties.map((p) => p.identifier);
    if (new Set(identifiers).size !== identifiers.length)
      throw fieldRefusal("properties", "Each site can be listed only once");
    if (identifiers.length) {
      const known = await q.query<{ id: string }>(sql`SELECT id FROM sites WHERE id = ANY(${array(identifiers)})`);
      const unknown = identifiers.find((i) => !known.some((k) => k.id === i));
      if (unknown !== undefined) throw fieldRefusal("properties", `There is no site named ${unknown.slice(0, 60)}`);
    }
  }

  async function write(tx: Queryable, id: number, input: NetworkInput & { slug: string }) {
    await tx.query(sql`
      UPDATE networks SET name = ${input.name}, slug = ${input.slug}, description = ${input.description ?? ""},
        logo_url = ${input.logoUrl ?? null}, website = ${input.website ?? null}, featured = ${input.featured},
        payment_terms = ${input.paymentTerms ?? null}, payment_methods = ${array(input.paymentMethods)}::text[],
        minimum_payment = ${input.minimumPayment}, tracking_platform = ${input.trackingPlatform ?? null},
        commission_types = ${array(input.commissionTypes)}::text[], updated_at = clock_timestamp()
      WHERE id = ${id}`);
    const keep = input.properties.map((p) => p.identifier);
    await tx.query(
      sql`DELETE FROM network_properties WHERE network_id = ${id} AND NOT (identifier = ANY(${array(keep)}::text[]))`,
    );
    for (const p of input.properties) {
      // A listing's offer count is kept by the offer writers; an edit leaves it alone.
      await tx.query(sql`
        INSERT INTO network_properties (network_id, identifier, joining_link, paid_account, display_order)
        VALUES (${id}, ${p.identifier}, ${p.joiningLink ?? null}, ${p.paidAccount}, ${p.displayOrder ?? null})
        ON CONFLICT (network_id, identifier) DO UPDATE SET joining_link = EXCLUDED.joining_link,
          paid_account = EXCLUDED.paid_account, display_order = EXCLUDED.display_order`);
    }
  }

  /** Sets the status from `from` to `to`; 409 when it is not `from` or the version is stale. */
  async function move(
    editor: CatalogueEditor,
    rawId: unknown,
    body: unknown,
    change: { action: string; to: "retired" | "active"; notAllowed: (s: CatalogueStatus) => string | undefined },
  ) {
    const id = parseId(rawId);
    const { updatedAt } = optionalVersion.parse(body ?? {});
    const saved = await db.transaction(async (tx) => {
      const before = await one(tx, id);
      if (!before) throw notFound(NOT_FOUND);
      if (updatedAt !== undefined && updatedAt !== before.updatedAt) throw staleEdit("network");
      const refusal = change.notAllowed(before.status);
      if (refusal) throw new HttpError(409, refusal);
      const rows = await tx.query(sql`
        UPDATE networks SET status = ${change.to},
          retired_at = CASE WHEN ${change.to} = 'retired' THEN clock_timestamp() END, updated_at = clock_timestamp()
        WHERE id = ${id} AND ${isoTime(sql`updated_at`)} = ${before.updatedAt} RETURNING id`);
      if (rows.length === 0) throw staleEdit("network");
      // Its offers leave search and return with it; offers retired on their own stay retired.
      const offers = await tx.query<{ id: number }>(
        change.to === "retired"
          ? sql`UPDATE offers SET status = 'retired', retired_with_network = true, updated_at = clock_timestamp()
                WHERE network_id = ${id} AND status = 'active' RETURNING id`
          : sql`UPDATE offers SET status = 'active', retired_with_network = false, updated_at = clock_timestamp()
                WHERE network_id = ${id} AND retired_with_network RETURNING id`,
      );
      const after = (await one(tx, id))!;
      await recordAudit(tx, {
        siteId: editor.siteId,
        actorId: editor.userId,
        action: change.action,
        subjectType: "network",
        subjectId: id,
        before: { status: before.status },
        after: { status: after.status, offers: offers.length },
      });
      return after;
    });
    changed();
    return saved;
  }

  return {
    /** One page of every network (any status), by name or slug, sorted by a whitelisted column. */
    async list(filter: NetworkFilter): Promise<AdminList<AdminNetwork>> {
      const where = allOf(
        filter.status ? sql`n.status = ${filter.status}` : undefined,
        filter.search
          ? sql`(lower(n.name) LIKE ${likePattern(filter.search)} OR n.slug LIKE ${likePattern(filter.search)})`
          : undefined,
      );
      return listPage(
        db,
        filter.page,
        (limit) =>
          db.query<AdminNetwork>(sql`
            SELECT ${ADMIN_COLUMNS} FROM networks n WHERE ${where} ${orderBy(filter, SORTABLE, sql`n.id`)} ${limit}`),
        sql`SELECT count(*)::int AS total FROM networks n WHERE ${where}`,
      );
    },

    async get(rawId: unknown): Promise<AdminNetwork> {
      const found = await one(db, parseId(rawId));
      if (!found) throw notFound(NOT_FOUND);
      return found;
    },

    /** A new listing, active at once; without a slug, one is made from the name. */
    async create(editor: CatalogueEditor, body: unknown): Promise<AdminNetwork> {
      const parsed = networkCreate.parse(body ?? {});
      const input = { ...parsed, slug: parsed.slug ?? slugOf(parsed.name) };
      const created = await db.transaction(async (tx) => {
        await check(tx, input, null);
        const [{ id }] = await tx.query<{ id: number }>(
          sql`INSERT INTO networks (slug, name) VALUES (${input.slug}, ${input.name}) RETURNING id`,
        );
        await write(tx, id, input);
        const after = (await one(tx, id))!;
        await recordAudit(tx, {
          siteId: editor.siteId,
          actorId: editor.userId,
          action: "network.create",
          subjectType: "network",
          subjectId: id,
          after: audited(after),
        });
        return after;
      });
      changed();
      return created;
    },

    /** Saves the fields sent over the version `updatedAt`; 409 when it changed since. */
    async update(editor: CatalogueEditor, rawId: unknown, body: unknown): Promise<AdminNetwork> {
      const id = parseId(rawId);
      const { updatedAt, ...changes } = networkUpdate.parse(body ?? {});
      const saved = await db.transaction(async (tx) => {
        // Locked first: of two editors saving one version, the second reads the first's save and gets 409.
        const [locked] = await tx.query(sql`SELECT 1 FROM networks WHERE id = ${id} FOR UPDATE`);
        const before = locked ? await one(tx, id) : undefined;
        if (!before) throw notFound(NOT_FOUND);
        if (before.updatedAt !== updatedAt) throw staleEdit("network");
        const current: NetworkInput & { slug: string } = {
          ...audited(before),
          description: before.description,
          logoUrl: before.logoUrl ?? undefined,
          website: before.website ?? undefined,
          paymentTerms: before.paymentTerms ?? undefined,
          trackingPlatform: before.trackingPlatform ?? undefined,
          properties: before.properties.map((p) => ({
            identifier: p.identifier,
            joiningLink: p.joiningLink ?? undefined,
            paidAccount: p.paidAccount,
            displayOrder: p.displayOrder ?? undefined,
          })),
        };
        // A field sent empty clears it; a field not sent keeps its value.
        const sent = (key: string) => Object.hasOwn(body as object, key);
        const input = { ...current } as NetworkInput & { slug: string };
        for (const [key, value] of Object.entries(changes)) if (sent(key)) Object.assign(input, { [key]: value });
        input.slug = changes.slug ?? (sent("slug") ? slugOf(input.name) : current.slug);
        await check(tx, input, id);
        await write(tx, id, input);
        // The offers' search text holds their network's name: rebuild it (the trigger runs on network_id),
        // locking the offers in id order like every other bulk offer update.
        if (input.name !== before.name)
          await tx.query(sql`
            UPDATE offers SET network_id = network_id
            WHERE id IN (SELECT o.id FROM offers o WHERE o.network_id = ${id} ORDER BY o.id FOR UPDATE)`);
        const after = (await one(tx, id))!;
        await recordAudit(tx, {
          siteId: editor.siteId,
          actorId: editor.userId,
          action: "network.update",
          subjectType: "network",
          subjectId: id,
          before: audited(before),
          after: audited(after),
        });
        return after;
      });
      changed();
      return saved;
    },

    retire: (editor: CatalogueEditor, rawId: unknown, body: unknown) =>
      move(editor, rawId, body, {
        action: "network.retire",
        to: "retired",
        notAllowed: (s) => (s === "retired" ? "This network is already retired" : undefined),
      }),

    restore: (editor: CatalogueEditor, rawId: unknown, body: unknown) =>
      move(editor, rawId, body, {
        action: "network.restore",
        to: "active",
        notAllowed: (s) => (s === "retired" ? undefined : "Only a retired network can be restored"),
      }),
  };
}
