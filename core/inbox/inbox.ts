// The console's inbox: advertise requests and contact messages as one list, and
// their handling (status, note, handler). An edit names the `updatedAt` it was
// made from; if someone saved in between, it answers 409 instead of overwriting.
import { sql, type Database, type SQL } from "#db/client.ts";
import { allOf, listPage, orderBy } from "#db/listing.ts";
import {
  inboxParams,
  inboxUpdate,
  type InboxFilter,
  type InboxItem,
  type InboxKind,
  type InboxPage,
} from "#contracts/inbox.ts";
import { recordAudit } from "#core/audit/audit.ts";
import { HttpError, badRequest, notFound } from "#core/errors.ts";

const NOT_FOUND = "Message not found";
const STALE = "Someone else changed this message; reload it and try again";

/** The inbox's sortable columns (contracts/inbox.ts names them). */
const SORTABLE = { createdAt: sql`m.created_at`, name: sql`lower(m.name)`, status: sql`m.status` };

/** Timestamps to the microsecond, so an `updatedAt` read back compares exactly. */
const iso = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Both tables in the inbox's one shape. */
const INBOX_ROWS = sql`
  SELECT 'advertise' AS kind, a.id, a.site_id, a.name, a.email, coalesce(a.details->>'company', '') AS subject,
         coalesce(a.details->>'message', '') AS message, a.details, a.status, a.note, a.handled_by,
         a.created_at, a.updated_at
  FROM advertisement_requests a
  UNION ALL
  SELECT 'contact', c.id, c.site_id, c.name, c.email, c.subject, c.message, '{}'::jsonb, c.status, c.note,
         c.handled_by, c.created_at, c.updated_at
  FROM contact_messages c`;

const TABLES: Record<InboxKind, SQL> = {
  advertise: sql`advertisement_requests`,
  contact: sql`contact_messages`,
};

export type InboxEditor = { siteId: string; userId: number };

export function createInboxService(db: Database) {
  const select = (where: SQL, tail: SQL = sql``) =>
    db.query<InboxItem>(sql`
      SELECT m.kind, m.id, m.name, m.email, m.subject, m.message, m.details, m.status, m.note,
             CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id, 'email', u.email) END AS "handledBy",
             ${iso(sql`m.created_at`)} AS "createdAt", ${iso(sql`m.updated_at`)} AS "updatedAt"
      FROM (${INBOX_ROWS}) m LEFT JOIN users u ON u.id = m.handled_by
      WHERE ${where} ${tail}`);

  async function one(siteId: string, kind: InboxKind, id: number): Promise<InboxItem | undefined> {
    const [item] = await select(sql`m.site_id = ${siteId} AND m.kind = ${kind} AND m.id = ${id}`);
    return item;
  }

  return {
    /** One page of the inbox, newest first, narrowed by kind and status. */
    async list(siteId: string, filter: InboxFilter): Promise<InboxPage> {
      const where = allOf(
        sql`m.site_id = ${siteId}`,
        filter.kind ? sql`m.kind = ${filter.kind}` : undefined,
        filter.status ? sql`m.status = ${filter.status}` : undefined,
      );
      return listPage(
        db,
        filter.page,
        (limit) => select(where, sql`${orderBy(filter, SORTABLE, sql`m.kind, m.id`)} ${limit}`),
        sql`SELECT count(*)::int AS total FROM (${INBOX_ROWS}) m WHERE ${where}`,
      );
    },

    /** Saves an edit made from the version `updatedAt`; 409 when the message changed since, 404 when it is not there. */
    async update(editor: InboxEditor, rawKind: unknown, rawId: unknown, body: unknown): Promise<InboxItem> {
      const params = inboxParams.safeParse({ kind: rawKind, id: rawId });
      if (!params.success) throw notFound(NOT_FOUND);
      const { kind, id } = params.data;
      const input = inboxUpdate.parse(body ?? {});
      const before = await one(editor.siteId, kind, id);
      if (!before) throw notFound(NOT_FOUND);
      if (input.handledBy) {
        const [user] = await db.query(sql`SELECT 1 FROM users WHERE id = ${input.handledBy}`);
        if (!user) throw badRequest("handledBy must be the id of an account");
      }
      const table = TABLES[kind];
      const saved = await db.transaction(async (tx) => {
        const rows = await tx.query<{ id: number }>(sql`
          UPDATE ${table} SET
            status = coalesce(${input.status ?? null}, status),
            note = coalesce(${input.note ?? null}, note),
            handled_by = CASE WHEN ${input.handledBy !== undefined} THEN ${input.handledBy ?? null}::bigint ELSE handled_by END,
            updated_at = clock_timestamp()
          WHERE id = ${id} AND site_id = ${editor.siteId} AND ${iso(sql`updated_at`)} = ${input.updatedAt}
          RETURNING id`);
        if (rows.length === 0) return false;
        const after = { status: input.status, note: input.note, handledBy: input.handledBy };
        await recordAudit(tx, {
          siteId: editor.siteId,
          actorId: editor.userId,
          action: "inbox.update",
          subjectType: kind === "advertise" ? "advertisement_request" : "contact_message",
          subjectId: id,
          before: { status: before.status, note: before.note, handledBy: before.handledBy?.id ?? null },
          after,
        });
        return true;
      });
      if (!saved) throw new HttpError(409, STALE);
      return (await one(editor.siteId, kind, id))!;
    },
  };
}
