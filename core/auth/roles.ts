// Granting and revoking console roles (contracts/roles.ts). Roles live in the
// account's `scope`, which the session reads on every request (sessions.ts), so
// a change applies from the account's next request. An edit names the `updatedAt`
// it was made from; a stale one answers 409. An admin cannot drop their own admin
// role, and the one making a change must still be an admin when it commits, so
// the console always keeps at least one admin.
import { z } from "zod";
import { array, sql, type Database, type Queryable, type SQL } from "#db/client.ts";
import { allOf, listPage, orderBy } from "#db/listing.ts";
import { adminPage, adminSort, type AdminList } from "#contracts/admin.ts";
import { FORBIDDEN, ROLES, type Role } from "#contracts/roles.ts";
import { integerField } from "#contracts/validation.ts";
import { recordAudit } from "#core/audit/audit.ts";
import { HttpError, badRequest, notFound } from "#core/errors.ts";

const NOT_FOUND = "Account not found";
const STALE = "Someone else changed this account; reload it and try again";
export const OWN_ADMIN_ROLE =
  "You cannot remove your own admin role: another admin has to, so the console always keeps at least one admin";

/** The role filter: one role, or accounts holding none. */
const ROLE_FILTERS = [...ROLES, "none"] as const;
const USER_SORTS = ["createdAt", "email", "name"] as const;

export const userFilter = z.object({
  page: adminPage,
  ...adminSort(USER_SORTS, "createdAt"),
  search: z
    .string({ error: "search must be text" })
    .trim()
    .max(100, "search must be at most 100 characters long")
    .optional()
    .transform((v) => v || undefined),
  role: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.enum(ROLE_FILTERS, { error: `role must be one of ${ROLE_FILTERS.join(", ")}` }).optional(),
  ),
});
export type UserFilter = z.output<typeof userFilter>;

/** A role change: the whole set of roles the account ends with, and the `updatedAt` the editor saw. */
const roleChange = z.object({
  roles: z
    .array(z.enum(ROLES, { error: `roles must be a list of: ${ROLES.join(", ")}` }), {
      error: `roles must be a list of: ${ROLES.join(", ")}`,
    })
    .max(10, `roles must be a list of: ${ROLES.join(", ")}`),
  updatedAt: z.string({ error: "updatedAt is required" }).max(40, "updatedAt must be a date"),
});

const accountId = integerField("id", 1).refine((n) => Number.isSafeInteger(n));

export type StaffAccount = {
  id: number;
  email: string;
  name: string;
  roles: Role[];
  createdAt: string;
  updatedAt: string;
};
export type StaffAccountPage = AdminList<StaffAccount>;

export type RoleEditor = { siteId: string; userId: number };

/** Timestamps to the microsecond, so an `updatedAt` read back compares exactly. */
const iso = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The roles a scope holds, in the order of ROLES (other scope entries are not roles). */
const rolesOf = (scope: readonly string[]): Role[] => ROLES.filter((role) => scope.includes(role));

type AccountRow = Omit<StaffAccount, "roles"> & { scope: string[] };
const toAccount = ({ scope, ...rest }: AccountRow): StaffAccount => ({ ...rest, roles: rolesOf(scope) });

const ACCOUNT_COLUMNS = sql`u.id, u.email, u.name, u.scope, ${iso(sql`u.created_at`)} AS "createdAt",
  ${iso(sql`u.updated_at`)} AS "updatedAt"`;

const SORT_COLUMNS = {
  createdAt: sql`u.created_at`,
  email: sql`u.email_key`,
  name: sql`lower(u.name)`,
} satisfies Record<(typeof USER_SORTS)[number], SQL>;

async function oneAccount(db: Queryable, id: number): Promise<StaffAccount | undefined> {
  const [row] = await db.query<AccountRow>(sql`SELECT ${ACCOUNT_COLUMNS} FROM users u WHERE u.id = ${id}`);
  return row && toAccount(row);
}

export function createRoleService(db: Database) {
  return {
    /** One page of accounts, found by email or name, narrowed by role. */
    async list(filter: UserFilter): Promise<StaffAccountPage> {
      const role = filter.role;
      const where = allOf(
        filter.search
          ? sql`(position(lower(${filter.search}) IN u.email_key) > 0 OR position(lower(${filter.search}) IN lower(u.name)) > 0)`
          : undefined,
        role === "none"
          ? sql`NOT (u.scope && ${array([...ROLES])}::text[])`
          : role
            ? sql`${role} = ANY (u.scope)`
            : undefined,
      );
      const list = await listPage(
        db,
        filter.page,
        (limit) =>
          db.query<AccountRow>(sql`
            SELECT ${ACCOUNT_COLUMNS} FROM users u WHERE ${where} ${orderBy(filter, SORT_COLUMNS, sql`u.id`)} ${limit}`),
        sql`SELECT count(*)::int AS total FROM users u WHERE ${where}`,
      );
      return { ...list, items: list.items.map(toAccount) };
    },

    /** Sets the account's roles to exactly `roles`; 409 when it changed since `updatedAt`, 404 when it is not there. */
    async setRoles(editor: RoleEditor, rawId: unknown, body: unknown): Promise<StaffAccount> {
      const id = accountId.safeParse(rawId);
      if (!id.success) throw notFound(NOT_FOUND);
      const input = roleChange.parse(body ?? {});
      const wanted = ROLES.filter((role) => input.roles.includes(role));
      return db.transaction(async (tx) => {
        // Both rows locked in id order: two admins changing each other's roles take turns,
        // and the second sees the first's change.
        const rows = await tx.query<{ id: number; scope: string[]; updatedAt: string; email: string }>(sql`
          SELECT id, email, scope, ${iso(sql`updated_at`)} AS "updatedAt" FROM users
          WHERE id IN (${editor.userId}, ${id.data}) ORDER BY id FOR UPDATE`);
        const target = rows.find((r) => r.id === id.data);
        const actor = rows.find((r) => r.id === editor.userId);
        if (!actor?.scope.includes("admin")) throw new HttpError(403, FORBIDDEN);
        if (!target) throw notFound(NOT_FOUND);
        if (target.updatedAt !== input.updatedAt) throw new HttpError(409, STALE);
        const before = rolesOf(target.scope);
        if (target.id === actor.id && before.includes("admin") && !wanted.includes("admin"))
          throw badRequest(OWN_ADMIN_ROLE);
        if (before.join() !== wanted.join()) {
          const others = target.scope.filter((entry) => !(ROLES as readonly string[]).includes(entry));
          await tx.query(sql`
            UPDATE users SET scope = ${array([...others, ...wanted])}::text[], updated_at = clock_timestamp()
            WHERE id = ${target.id}`);
          await recordAudit(tx, {
            siteId: editor.siteId,
            actorId: editor.userId,
            action: "user.roles",
            subjectType: "user",
            subjectId: target.id,
            before: { email: target.email, roles: before },
            after: { email: target.email, roles: wanted },
          });
        }
        return (await oneAccount(tx, target.id))!;
      });
    },
  };
}
