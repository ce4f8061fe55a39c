// The console's inbox: advertise requests and contact messages in one list, and
// their handling; a stale edit answers 409 instead of overwriting; every route
// answers 401/403 without the role.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import type { InboxItem, InboxPage } from "#contracts/inbox.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";

let t: TestApp;
let moderator: Awaited<ReturnType<typeof signInWithRoles>>;
let contactId: number;
let advertiseId: number;

beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 2, offers: 10, trafficSources: 1 } });
  moderator = await signInWithRoles(t, ["moderator"]);
  const site = t.config.siteId;
  [{ id: advertiseId }] = await t.db.query<{ id: number }>(sql`
    INSERT INTO advertisement_requests (site_id, name, email, details, created_at)
    VALUES (${site}, 'Ada Buyer', 'ada@example.com', '{"company":"Acme Media","message":"Top banner in May?"}'::jsonb,
            now() - interval '1 hour')
    RETURNING id`);
  [{ id: contactId }] = await t.db.query<{ id: number }>(sql`
    INSERT INTO contact_messages (site_id, name, email, subject, message)
    VALUES (${site}, 'Carl Reader', 'carl@example.com', '[Support] Broken link', 'The join link of a network is broken.')
    RETURNING id`);
});
afterAll(() => t?.close());

const list = (query = "", headers = moderator.headers) => t.app.inject({ url: `/api/admin/inbox${query}`, headers });
const edit = (kind: string, id: number | string, payload: object, headers = moderator.headers) =>
  t.app.inject({ method: "POST", url: `/api/admin/inbox/${kind}/${id}`, headers, payload });

describe("/api/admin/inbox", () => {
  it("answers 401 without a session and 403 to a plain user", async () => {
    expect((await t.app.inject({ url: "/api/admin/inbox" })).statusCode).toBe(401);
    const plain = await signInWithRoles(t, []);
    expect((await list("", plain.headers)).statusCode).toBe(403);
    expect((await edit("contact", contactId, { updatedAt: "x" }, plain.headers)).statusCode).toBe(403);
  });

  it("lists both kinds newest first, filtered by kind and status", async () => {
    const res = await list();
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<InboxPage>();
    expect(page.total).toBe(2);
    expect(page.items.map((i) => [i.kind, i.id])).toEqual([
      ["contact", contactId],
      ["advertise", advertiseId],
    ]);
    expect(page.items[1]).toMatchObject({ subject: "Acme Media", message: "Top banner in May?", status: "new" });
    const ads = (await list("?kind=advertise")).json<InboxPage>();
    expect(ads.items.map((i) => i.id)).toEqual([advertiseId]);
    expect((await list("?status=done")).json<InboxPage>().total).toBe(0);
    for (const bad of ["?kind=spam", "?status=closed", "?page=abc"])
      expect((await list(bad)).statusCode, bad).toBe(400);
  });

  it("saves status, note and handler with an audit row, and refuses a stale edit with 409", async () => {
    const [current] = (await list("?kind=contact")).json<InboxPage>().items;
    const saved = await edit("contact", contactId, {
      updatedAt: current.updatedAt,
      status: "in_progress",
      note: "Asked the network for a new link.",
      handledBy: moderator.user.id,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const item = saved.json<InboxItem>();
    expect(item).toMatchObject({
      status: "in_progress",
      note: "Asked the network for a new link.",
      handledBy: { id: moderator.user.id, email: moderator.email },
    });
    expect(item.updatedAt).not.toBe(current.updatedAt);
    const [row] = await t.db.query<{ status: string; handled_by: number }>(
      sql`SELECT status, handled_by FROM contact_messages WHERE id = ${contactId}`,
    );
    expect(row).toEqual({ status: "in_progress", handled_by: moderator.user.id });
    const audit = await t.db.query<{ before: { status: string }; after: { status: string } }>(
      sql`SELECT before, after FROM audit_log WHERE action = 'inbox.update' AND subject_id = ${contactId}`,
    );
    expect(audit).toHaveLength(1);
    expect(audit[0].before.status).toBe("new");
    expect(audit[0].after.status).toBe("in_progress");

    // A second editor still holding the old version does not overwrite the first.
    const stale = await edit("contact", contactId, { updatedAt: current.updatedAt, status: "done" });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ message: expect.stringContaining("Someone else changed this message") });
    const [after] = await t.db.query<{ status: string }>(
      sql`SELECT status FROM contact_messages WHERE id = ${contactId}`,
    );
    expect(after.status).toBe("in_progress");
  });

  it("answers 404 for an unknown message and 400 for a bad edit", async () => {
    for (const [kind, id] of [
      ["contact", 987654],
      ["spam", contactId],
      ["contact", "abc"],
    ] as const) {
      expect((await edit(kind, id, { updatedAt: "2026-01-01T00:00:00.000000Z" })).statusCode, `${kind}/${id}`).toBe(
        404,
      );
    }
    const [current] = (await list("?kind=advertise")).json<InboxPage>().items;
    for (const payload of [
      {},
      { updatedAt: current.updatedAt, status: "closed" },
      { updatedAt: current.updatedAt, note: "x".repeat(2001) },
      { updatedAt: current.updatedAt, handledBy: 987654 },
    ]) {
      const res = await edit("advertise", advertiseId, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json()).toEqual({ message: expect.any(String) });
    }
  });
});
