// The queue of platform categories (issue #13, /api/admin/platform-categories): a
// sync queues the category names a platform sends, unmapped; an admin maps one to
// a vertical (or makes a new vertical from it) and the next sync gives the offers
// that vertical, so they show in its search; unmapping takes it away again. Each
// change makes the platform's sources due and writes its audit row; bad input is
// a 400 with its message, an unknown category a 404, and only admins may do it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import type { OfferSearchResult } from "#contracts/offers.ts";
import type {
  PlatformCategory,
  PlatformCategoryChange,
  PlatformCategoryPage,
  VerticalFromCategory,
} from "#contracts/platform-categories.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";
import { startFakeEverflow, type FakeEverflow } from "../fakes/everflow.ts";
import { addSource, API_KEY, offerOf, SECRETS_KEY } from "../supply/helpers.ts";

const EVERFLOW_CATEGORIES = ["Finance", "Gaming", "Health & Beauty", "Sweepstakes"];

let t: TestApp;
let server: FakeEverflow;
let admin: Awaited<ReturnType<typeof signInWithRoles>>;
let sourceId: number;

beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 2, offers: 5, trafficSources: 1 }, env: { SECRETS_KEY } });
  admin = await signInWithRoles(t, ["admin"]);
  // Offers 1..8: "Finance" is offers 4 and 8, "Sweepstakes" offers 2 and 6 (n % 4).
  server = await startFakeEverflow({ apiKey: API_KEY, count: 8 });
  ({ sourceId } = await addSource(t.db, t.app.services.secrets, { url: server.url }));
  expect(await t.app.services.offerSync.run(sourceId)).toMatchObject({ status: "succeeded", new: 8 });
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

const list = (query = "", headers = admin.headers) =>
  t.app.inject({ url: `/api/admin/platform-categories${query}`, headers });
const put = (id: string, payload: unknown, headers = admin.headers) =>
  t.app.inject({
    method: "PUT",
    url: `/api/admin/platform-categories/${id}`,
    headers,
    payload: payload as object,
  });
const postVertical = (id: string, payload: unknown, headers = admin.headers) =>
  t.app.inject({
    method: "POST",
    url: `/api/admin/platform-categories/${id}/vertical`,
    headers,
    payload: payload as object,
  });

const everflow = async (view: string) => {
  const res = await list(`?view=${view}&platform=everflow&sort=name&dir=asc`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<PlatformCategoryPage>().items;
};
const category = async (name: string): Promise<PlatformCategory> => {
  const found = (await everflow("all")).find((c) => c.name === name);
  expect(found, name).toBeDefined();
  return found!;
};
const vertical = async (name: string) => {
  const [row] = await t.db.query<{ id: number }>(sql`SELECT id FROM categories WHERE name = ${name}`);
  return row.id;
};
const auditOf = (name: string) =>
  t.db.query<{ action: string; actorId: number | null; before: unknown; after: unknown }>(sql`
    SELECT action, actor_id AS "actorId", before, after FROM audit_log
    WHERE subject_type = 'platform_category' AND after->>'name' = ${name} ORDER BY id`);
const makeNotDue = () =>
  t.db.query(sql`UPDATE offer_sources SET next_run_at = now() + interval '1 day' WHERE id = ${sourceId}`);
const isDue = async () => {
  const [row] = await t.db.query<{ due: boolean }>(
    sql`SELECT next_run_at <= now() AS due FROM offer_sources WHERE id = ${sourceId}`,
  );
  return row.due;
};
const searchByVertical = async (id: number) => {
  const res = await t.app.inject({ method: "POST", url: "/api/offers/search", payload: { categories: [id] } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<OfferSearchResult>().offers.map((o) => o.name);
};
const idOf = (name: string) => `everflow:${Buffer.from(name).toString("base64url")}`;

describe("/api/admin/platform-categories", () => {
  it("queues every category name a sync meets, unmapped, with when it was first seen", async () => {
    const unmapped = await everflow("unmapped");
    expect(unmapped.map((c) => c.name)).toEqual(EVERFLOW_CATEGORIES);
    for (const c of unmapped) {
      expect(c).toMatchObject({ platform: "everflow", vertical: null, id: idOf(c.name) });
      expect(c.enabledSources).toBeGreaterThanOrEqual(1);
      expect(Date.parse(c.firstSeen)).not.toBeNaN();
    }
    expect(await everflow("mapped")).toEqual([]);
    // Unmapped is the default view; search narrows by name, platform by platform.
    const byDefault = (await list("?search=beauty")).json<PlatformCategoryPage>();
    expect(byDefault.items.map((c) => c.name)).toEqual(["Health & Beauty"]);
    expect((await list("?platform=tune")).json<PlatformCategoryPage>().total).toBe(0);
    // No offer carries a vertical before a mapping.
    expect((await offerOf(t.db, sourceId, 4)).categoryIds).toEqual([]);
  });

  it("maps a category to a vertical: its offers get the vertical at the next sync and show in its search", async () => {
    const finance = await category("Finance");
    const verticalId = await vertical("Finance");
    await makeNotDue();
    const res = await put(finance.id, { categoryId: verticalId });
    expect(res.statusCode, res.body).toBe(200);
    const change = res.json<PlatformCategoryChange>();
    expect(change).toMatchObject({
      changed: true,
      sourcesDue: expect.any(Number),
      category: { id: finance.id, name: "Finance", vertical: { id: verticalId, name: "Finance" } },
    });
    expect(change.sourcesDue).toBeGreaterThanOrEqual(1);
    // The source is due now, so the scheduler brings the mapping soon.
    expect(await isDue()).toBe(true);
    // It leaves the queue and shows among the mapped ones.
    expect((await everflow("unmapped")).map((c) => c.name)).not.toContain("Finance");
    expect((await everflow("mapped")).map((c) => c.name)).toEqual(["Finance"]);

    // Nothing changes on the offers until their source syncs again.
    expect((await offerOf(t.db, sourceId, 4)).categoryIds).toEqual([]);
    expect(await t.app.services.offerSync.run(sourceId)).toMatchObject({ changed: 2, unchanged: 6 });
    expect((await offerOf(t.db, sourceId, 4)).categoryIds).toEqual([verticalId]);
    expect((await offerOf(t.db, sourceId, 8)).categoryIds).toEqual([verticalId]);
    expect((await offerOf(t.db, sourceId, 3)).categoryIds).toEqual([]);

    expect(await auditOf("Finance")).toEqual([
      {
        action: "platform_category.map",
        actorId: admin.user.id,
        before: { platform: "everflow", name: "Finance", vertical: null },
        after: {
          platform: "everflow",
          name: "Finance",
          vertical: { id: verticalId, name: "Finance" },
          sourcesDue: change.sourcesDue,
        },
      },
    ]);

    // Mapping it to the vertical it already has changes nothing and audits nothing.
    const again = await put(finance.id, { categoryId: String(verticalId) });
    expect(again.json<PlatformCategoryChange>()).toMatchObject({ changed: false, sourcesDue: 0 });
    expect(await auditOf("Finance")).toHaveLength(1);
  });

  it("makes a new vertical from a category's name and maps to it; the next sync puts the offers in its search", async () => {
    const sweepstakes = await category("Sweepstakes");
    const res = await postVertical(sweepstakes.id, { name: "  Prize Draws  " });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<VerticalFromCategory>();
    expect(created.vertical).toMatchObject({ name: "Prize Draws", slug: "prize-draws", offerCount: 0 });
    expect(created.category.vertical).toEqual({ id: created.vertical.id, name: "Prize Draws" });
    expect(await vertical("Prize Draws")).toBe(created.vertical.id);
    expect(await searchByVertical(created.vertical.id)).toEqual([]);

    expect(await t.app.services.offerSync.run(sourceId)).toMatchObject({ changed: 2 });
    expect((await searchByVertical(created.vertical.id)).sort()).toEqual(["Fake Offer 2", "Fake Offer 6"]);

    const [made] = await t.db.query<{ actorId: number; after: unknown }>(sql`
      SELECT actor_id AS "actorId", after FROM audit_log
      WHERE action = 'vertical.create' AND subject_type = 'vertical' AND subject_id = ${created.vertical.id}`);
    expect(made).toEqual({ actorId: admin.user.id, after: { name: "Prize Draws", slug: "prize-draws", top: false } });
    expect((await auditOf("Sweepstakes")).map((a) => a.action)).toEqual(["platform_category.map"]);
  });

  it("unmaps a category: back in the queue, and the next sync takes the vertical off its offers", async () => {
    const finance = await category("Finance");
    await makeNotDue();
    const res = await put(finance.id, { categoryId: null });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<PlatformCategoryChange>()).toMatchObject({ changed: true, category: { vertical: null } });
    expect(await isDue()).toBe(true);
    expect((await everflow("unmapped")).map((c) => c.name)).toContain("Finance");

    await t.app.services.offerSync.run(sourceId);
    expect((await offerOf(t.db, sourceId, 4)).categoryIds).toEqual([]);
    const audit = await auditOf("Finance");
    expect(audit.map((a) => a.action)).toEqual(["platform_category.map", "platform_category.unmap"]);
    expect(audit[1]).toMatchObject({ actorId: admin.user.id, after: { vertical: null } });
  });

  it("answers 400 with its message for bad input, changing nothing", async () => {
    const gaming = await category("Gaming");
    const refused = async (res: Awaited<ReturnType<typeof put>>, message: string) => {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ message: string }>().message).toBe(message);
    };
    await refused(await put(gaming.id, { categoryId: 987654 }), "There is no vertical with id 987654");
    await refused(await put(gaming.id, {}), "categoryId is required: the id of a vertical, or null to unmap");
    await refused(
      await put(gaming.id, { categoryId: "games" }),
      "categoryId must be the id of a vertical, or null to unmap",
    );
    await refused(await put(gaming.id, { categoryId: 0 }), "categoryId must be greater than or equal to 1");
    const badId = "id must name a platform category as the list gives it (platform:name in base64url)";
    for (const id of ["42", "everflow", "everflow:", "Everflow:R2FtaW5n", "everflow:R2FtaW5n%3D%3D", "everflow:%2F%2F"])
      await refused(await put(id, { categoryId: null }), badId);
    await refused(await postVertical(gaming.id, { name: "   " }), "name cannot be blank");
    await refused(await postVertical(gaming.id, {}), "name cannot be blank");
    await refused(await postVertical(gaming.id, { name: "x".repeat(101) }), "name must be at most 100 characters long");
    // A vertical of that name exists already (the seed's): map to it instead; nothing is created or mapped.
    await refused(await postVertical(gaming.id, { name: "finance" }), "Finance is already the name of a vertical");
    await refused(await list("?view=waiting"), "view must be one of unmapped, mapped, all");
    await refused(await list("?platform=shopify"), "platform must be one of everflow, tune, cake, affise, feed");

    expect((await category("Gaming")).vertical).toBeNull();
    expect(await auditOf("Gaming")).toEqual([]);
  });

  it("answers 404 for a category no platform has sent", async () => {
    for (const res of [
      await put(idOf("No Such Category"), { categoryId: null }),
      await postVertical(idOf("No Such Category"), { name: "No Such Category" }),
    ]) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json<{ message: string }>().message).toBe("Platform category not found");
    }
    expect(await t.db.query(sql`SELECT 1 FROM categories WHERE name = 'No Such Category'`)).toEqual([]);
  });

  it("answers 401 without a session and 403 to a moderator", async () => {
    const gaming = await category("Gaming");
    expect((await t.app.inject({ url: "/api/admin/platform-categories" })).statusCode).toBe(401);
    expect((await put(gaming.id, { categoryId: null }, {} as typeof admin.headers)).statusCode).toBe(401);
    expect((await postVertical(gaming.id, { name: "Games" }, {} as typeof admin.headers)).statusCode).toBe(401);
    const moderator = await signInWithRoles(t, ["moderator"]);
    expect((await list("", moderator.headers)).statusCode).toBe(403);
    expect((await put(gaming.id, { categoryId: await vertical("Finance") }, moderator.headers)).statusCode).toBe(403);
    expect((await postVertical(gaming.id, { name: "Games" }, moderator.headers)).statusCode).toBe(403);
    expect((await category("Gaming")).vertical).toBeNull();
    expect(await t.db.query(sql`SELECT 1 FROM categories WHERE name = 'Games'`)).toEqual([]);
  });
});
