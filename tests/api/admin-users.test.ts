// Accounts and roles in the console: admins find accounts and grant or revoke
// roles; the change applies on the account's next request (same session), a
// stale edit answers 409, an admin cannot drop their own admin role, and every
// change leaves an audit row with the roles before and after.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { array, sql } from "#db/client.ts";
import { FORBIDDEN } from "#contracts/roles.ts";
import { OWN_ADMIN_ROLE, type StaffAccount, type StaffAccountPage } from "#core/auth/roles.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";

type Account = Awaited<ReturnType<typeof signInWithRoles>>;
let t: TestApp;
let admin: Account;

beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 2, offers: 5, trafficSources: 1 } });
  admin = await signInWithRoles(t, ["admin"], "Ada Admin");
});
afterAll(() => t?.close());

const list = (query = "", headers = admin.headers) => t.app.inject({ url: `/api/admin/users${query}`, headers });
const setRoles = (id: number | string, payload: unknown, headers = admin.headers) =>
  t.app.inject({ method: "PUT", url: `/api/admin/users/${id}/roles`, headers, payload: payload as object });
const current = async (id: number) => {
  const [row] = await t.db.query<{ scope: string[] }>(sql`SELECT scope FROM users WHERE id = ${id}`);
  const account = (await list(`?search=${encodeURIComponent((await emailOf(id)) ?? "")}`)).json<StaffAccountPage>();
  return { scope: row.scope, account: account.items.find((a) => a.id === id)! };
};
const emailOf = async (id: number) =>
  (await t.db.query<{ email: string }>(sql`SELECT email FROM users WHERE id = ${id}`))[0]?.email;
const auditRows = (id: number) =>
  t.db.query<{ actor_id: number; before: { roles: string[] }; after: { roles: string[] } }>(sql`
    SELECT actor_id, before, after FROM audit_log WHERE action = 'user.roles' AND subject_id = ${id} ORDER BY id`);

describe("/api/admin/users", () => {
  it("answers 401 without a session and 403 to a plain user or a moderator", async () => {
    expect((await t.app.inject({ url: "/api/admin/users" })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: "PUT", url: "/api/admin/users/1/roles", payload: { roles: [] } })).statusCode,
    ).toBe(401);
    for (const roles of [[], ["moderator"]] as const) {
      const staff = await signInWithRoles(t, roles);
      const refused = await list("", staff.headers);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ message: FORBIDDEN });
      expect((await setRoles(staff.user.id, { roles: ["admin"], updatedAt: "x" }, staff.headers)).statusCode).toBe(403);
      expect((await current(staff.user.id)).scope).toEqual([...roles]);
    }
  });

  it("finds accounts by email or name, filters by role, sorts and pages", async () => {
    const moderator = await signInWithRoles(t, ["moderator"], "Mona Moderator");
    const plain = await signInWithRoles(t, [], "Pablo Plain");
    const all = (await list()).json<StaffAccountPage>();
    const [{ total }] = await t.db.query<{ total: number }>(sql`SELECT count(*)::int AS total FROM users`);
    expect(all).toMatchObject({ total, page: 1, pageSize: 50 });
    // Newest first by default.
    expect(all.items[0].id).toBe(plain.user.id);

    const byName = (await list("?search=mona%20MOD")).json<StaffAccountPage>();
    expect(byName.items.map((a) => a.id)).toEqual([moderator.user.id]);
    expect(byName.items[0]).toMatchObject({ email: moderator.email, name: "Mona Moderator", roles: ["moderator"] });
    const byEmail = (await list(`?search=${plain.email.slice(0, 12).toUpperCase()}`)).json<StaffAccountPage>();
    expect(byEmail.items.map((a) => a.id)).toEqual([plain.user.id]);
    // A LIKE wildcard is only text.
    expect((await list("?search=%25")).json<StaffAccountPage>().total).toBe(0);

    const counts = await t.db.query<{ admins: number; moderators: number; none: number }>(sql`
      SELECT count(*) FILTER (WHERE 'admin' = ANY (scope))::int AS admins,
             count(*) FILTER (WHERE 'moderator' = ANY (scope))::int AS moderators,
             count(*) FILTER (WHERE NOT (scope && '{admin,moderator}'::text[]))::int AS none FROM users`);
    const admins = (await list("?role=admin")).json<StaffAccountPage>();
    expect(admins.total).toBe(counts[0].admins);
    expect(admins.items.every((a) => a.roles.includes("admin"))).toBe(true);
    const moderators = (await list("?role=moderator")).json<StaffAccountPage>();
    expect(moderators.total).toBe(counts[0].moderators);
    expect(moderators.items.map((a) => a.id)).toContain(moderator.user.id);
    const none = (await list("?role=none")).json<StaffAccountPage>();
    expect(none.total).toBe(counts[0].none);
    expect(none.items.every((a) => a.roles.length === 0)).toBe(true);

    const byEmailAsc = (await list("?sort=email&dir=asc")).json<StaffAccountPage>();
    const emails = byEmailAsc.items.map((a) => a.email.toLowerCase());
    expect(emails).toEqual([...emails].sort());
    expect((await list("?page=2")).json<StaffAccountPage>()).toMatchObject({ page: 2, items: [] });

    for (const bad of ["?role=root", "?page=abc", `?search=${"x".repeat(101)}`]) {
      const res = await list(bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toEqual({ message: expect.any(String) });
    }
  });

  it("grants and revokes a role with an audit row; the account's next request carries it", async () => {
    const user = await signInWithRoles(t, [], "Gina Granted");
    const inbox = () => t.app.inject({ url: "/api/admin/inbox", headers: user.headers });
    expect((await inbox()).statusCode).toBe(403);

    const { account } = await current(user.user.id);
    const granted = await setRoles(user.user.id, { roles: ["moderator"], updatedAt: account.updatedAt });
    expect(granted.statusCode, granted.body).toBe(200);
    const saved = granted.json<StaffAccount>();
    expect(saved).toMatchObject({ id: user.user.id, email: user.email, roles: ["moderator"] });
    expect(saved.updatedAt).not.toBe(account.updatedAt);
    expect((await current(user.user.id)).scope).toEqual(["moderator"]);
    // The same session, no new login: the very next request is a moderator's.
    expect((await inbox()).statusCode).toBe(200);

    const revoked = await setRoles(user.user.id, { roles: [], updatedAt: saved.updatedAt });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json<StaffAccount>().roles).toEqual([]);
    expect((await inbox()).statusCode).toBe(403);

    const audit = await auditRows(user.user.id);
    expect(audit).toEqual([
      {
        actor_id: admin.user.id,
        before: { email: user.email, roles: [] },
        after: { email: user.email, roles: ["moderator"] },
      },
      {
        actor_id: admin.user.id,
        before: { email: user.email, roles: ["moderator"] },
        after: { email: user.email, roles: [] },
      },
    ]);
  });

  it("refuses a stale edit with 409 and leaves the roles as the first editor saved them", async () => {
    const user = await signInWithRoles(t, []);
    const { account } = await current(user.user.id);
    expect((await setRoles(user.user.id, { roles: ["moderator"], updatedAt: account.updatedAt })).statusCode).toBe(200);
    const stale = await setRoles(user.user.id, { roles: ["admin"], updatedAt: account.updatedAt });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ message: expect.stringContaining("Someone else changed this account") });
    expect((await current(user.user.id)).scope).toEqual(["moderator"]);
    expect(await auditRows(user.user.id)).toHaveLength(1);
  });

  it("keeps the editor's own admin role, so the console always has an admin", async () => {
    const { account } = await current(admin.user.id);
    const refused = await setRoles(admin.user.id, { roles: ["moderator"], updatedAt: account.updatedAt });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ message: OWN_ADMIN_ROLE });
    expect((await current(admin.user.id)).scope).toEqual(["admin"]);
    // Adding a role to oneself is fine.
    const added = await setRoles(admin.user.id, { roles: ["admin", "moderator"], updatedAt: account.updatedAt });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json<StaffAccount>().roles).toEqual(["admin", "moderator"]);

    // An admin whose own admin role was revoked cannot change anyone's roles afterwards.
    const other = await signInWithRoles(t, ["admin"]);
    const target = (await current(other.user.id)).account;
    expect((await setRoles(other.user.id, { roles: [], updatedAt: target.updatedAt })).statusCode).toBe(200);
    const { account: mine } = await current(admin.user.id);
    expect((await setRoles(admin.user.id, { roles: [], updatedAt: mine.updatedAt }, other.headers)).statusCode).toBe(
      403,
    );
    expect((await current(admin.user.id)).scope).toEqual(["admin", "moderator"]);
  });

  it("keeps scope entries that are not console roles", async () => {
    const user = await signInWithRoles(t, []);
    await t.db.query(sql`UPDATE users SET scope = ${array(["beta", "moderator"])}::text[] WHERE id = ${user.user.id}`);
    const { account } = await current(user.user.id);
    expect(account.roles).toEqual(["moderator"]);
    const saved = await setRoles(user.user.id, { roles: ["admin", "admin"], updatedAt: account.updatedAt });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await current(user.user.id)).scope).toEqual(["beta", "admin"]);
  });

  it("answers 404 for an unknown account and 400 for a bad body", async () => {
    const user = await signInWithRoles(t, []);
    const { account } = await current(user.user.id);
    for (const id of [987654321, "abc", 0, "1e3", "99999999999999999999"]) {
      const res = await setRoles(id, { roles: [], updatedAt: account.updatedAt });
      expect(res.statusCode, String(id)).toBe(404);
      expect(res.json()).toEqual({ message: "Account not found" });
    }
    for (const payload of [
      {},
      { roles: ["root"], updatedAt: account.updatedAt },
      { roles: "admin", updatedAt: account.updatedAt },
      { roles: [] },
      { roles: [], updatedAt: 5 },
      [],
    ]) {
      const res = await setRoles(user.user.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toEqual({ message: expect.any(String) });
    }
    expect((await current(user.user.id)).scope).toEqual([]);
    expect(await auditRows(user.user.id)).toHaveLength(0);
  });
});
