// The audit log of the operator console: every action records who did it, to
// which record, and the values before and after. `record` takes the caller's
// transaction, so an action and its audit row are kept or lost together.
import { sql, type Queryable } from "#db/client.ts";
import { allOf, listPage } from "#db/listing.ts";
import type { AuditEntry, AuditFilter, AuditPage } from "#contracts/admin.ts";

export type AuditRecord = {
  siteId: string;
  actorId: number | null;
  action: string;
  subjectType: string;
  subjectId: number | null;
  before?: unknown;
  after?: unknown;
};

const asJson = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/** Adds one row; call it inside the transaction that makes the change. */
export async function recordAudit(tx: Queryable, entry: AuditRecord): Promise<void> {
  await tx.query(sql`
    INSERT INTO audit_log (site_id, actor_id, action, subject_type, subject_id, before, after)
    VALUES (${entry.siteId}, ${entry.actorId}, ${entry.action}, ${entry.subjectType}, ${entry.subjectId},
            ${asJson(entry.before)}::jsonb, ${asJson(entry.after)}::jsonb)`);
}

export function createAuditService(db: Queryable) {
  return {
    /** One page of the log, newest first, narrowed by action, subject type or actor. */
    async list(siteId: string, filter: AuditFilter): Promise<AuditPage> {
      const where = allOf(
        sql`a.site_id = ${siteId}`,
        filter.action ? sql`a.action = ${filter.action}` : undefined,
        filter.subjectType ? sql`a.subject_type = ${filter.subjectType}` : undefined,
        filter.actorId ? sql`a.actor_id = ${filter.actorId}` : undefined,
      );
      return listPage(
        db,
        filter.page,
        (limit) =>
          db.query<AuditEntry>(sql`
            SELECT a.id, a.action, a.subject_type AS "subjectType", a.subject_id AS "subjectId",
                   a.actor_id AS "actorId", u.email AS "actorEmail", a.before, a.after,
                   to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"
            FROM audit_log a LEFT JOIN users u ON u.id = a.actor_id
            WHERE ${where}
            ORDER BY a.created_at DESC, a.id DESC ${limit}`),
        sql`SELECT count(*)::int AS total FROM audit_log a WHERE ${where}`,
      );
    },
  };
}
