// The console's API guard and audit log: 401 without a session, 403 without the
// role, the list shape for the role; bad filters answer 400 with a message.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import type { AuditPage } from "#contracts/admin.ts";
import { FORBIDDEN } from "#contracts/roles.ts";
import { recordAudit } from "#core/audit/audit.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 3, offers: 10, trafficSources: 1 } });
});
afterAll(() => t?.close());

describe("GET /api/admin/audit", () => {
  it("answers 401 without a session and 403 to a plain user or a moderator", async () => {
    const anonymous = await t.app.inject({ url: "/api/admin/audit" });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ message: expect.any(String) });

    const plain = await signInWithRoles(t, []);
    const refused = await t.app.inject({ url: "/api/admin/audit", headers: plain.headers });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: FORBIDDEN });

    const moderator = await signInWithRoles(t, ["moderator"]);
    expect((await t.app.inject({ url: "/api/admin/audit", headers: moderator.headers })).statusCode).toBe(403);
  });

  it("lists the log newest first for an admin, filtered and paged", async () => {
    const admin = await signInWithRoles(t, ["admin"]);
    const siteId = t.config.siteId;
    await t.db.transaction(async (tx) => {
      await recordAudit(tx, {
        siteId,
        actorId: admin.user.id,
        action: "test.first",
        subjectType: "network",
        subjectId: 1,
        before: { name: "Old" },
        after: { name: "New" },
      });
      await recordAudit(tx, {
        siteId,
        actorId: admin.user.id,
        action: "test.second",
        subjectType: "review",
        subjectId: 2,
      });
    });
    const res = await t.app.inject({ url: "/api/admin/audit?page=1", headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<AuditPage>();
    const [{ count }] = await t.db.query<{ count: number }>(sql`SELECT count(*)::int AS count FROM audit_log`);
    expect(page.total).toBe(count);
    expect(page.pageSize).toBe(50);
    expect(page.items.map((i) => i.action).slice(0, 2)).toEqual(["test.second", "test.first"]);
    expect(page.items[1]).toMatchObject({ actorEmail: admin.email, before: { name: "Old" }, after: { name: "New" } });

    const filtered = await t.app.inject({ url: "/api/admin/audit?action=test.first", headers: admin.headers });
    expect(filtered.json<AuditPage>().items.map((i) => i.action)).toEqual(["test.first"]);
  });

  it("refuses a bad page or filter with 400 and a message", async () => {
    const admin = await signInWithRoles(t, ["admin"]);
    for (const query of ["page=abc", "page=0", "actorId=-1", `action=${"x".repeat(101)}`]) {
      const res = await t.app.inject({ url: `/api/admin/audit?${query}`, headers: admin.headers });
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toEqual({ message: expect.any(String) });
    }
    const empty = await t.app.inject({ url: "/api/admin/audit?page=&action=", headers: admin.headers });
    expect(empty.statusCode, empty.body).toBe(200);
  });
});
