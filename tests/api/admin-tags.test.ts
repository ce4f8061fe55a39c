// Third-party tags per site in the console's API: admins only (401/403 otherwise),
// every field validated with its message, an audit row with each save, and a
// save made from a stale version answers 409 instead of overwriting.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import type { SiteTags } from "#contracts/tags.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";

let t: TestApp;
let admin: Awaited<ReturnType<typeof signInWithRoles>>;

beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 2, offers: 5, trafficSources: 1 } });
  admin = await signInWithRoles(t, ["admin"]);
});
afterAll(() => t?.close());

const read = (headers: Record<string, string> = admin.headers) =>
  t.app.inject({ method: "GET", url: "/api/admin/tags", headers });
const save = (payload: object, headers: Record<string, string> = admin.headers) =>
  t.app.inject({ method: "PUT", url: "/api/admin/tags", headers, payload });

const TAGS = {
  analyticsId: "g-abc123def4",
  pixelId: "1234567890123456",
  gptNetworkCode: "21812345",
  gptSlots: { "728x90": "/offeratlas/header/", "250x250": "offeratlas/sidebar" },
  consentRequired: true,
};

describe("/api/admin/tags", () => {
  it("answers 401 without a session and 403 to a plain user and to a moderator", async () => {
    expect((await t.app.inject({ url: "/api/admin/tags" })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "PUT", url: "/api/admin/tags", payload: {} })).statusCode).toBe(401);
    for (const roles of [[], ["moderator"]] as const) {
      const someone = await signInWithRoles(t, roles);
      const get = await read(someone.headers);
      expect(get.statusCode, roles.join()).toBe(403);
      expect(get.json()).toEqual({ message: expect.any(String) });
      expect((await save({ ...TAGS, updatedAt: null }, someone.headers)).statusCode, roles.join()).toBe(403);
    }
    expect(await t.db.query(sql`SELECT 1 FROM site_tags`)).toHaveLength(0);
  });

  it("starts empty, saves the settings with an audit row, and answers them back", async () => {
    const first = await read();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      analyticsId: null,
      pixelId: null,
      gptNetworkCode: null,
      gptSlots: {},
      consentRequired: true,
      updatedAt: null,
    });

    const res = await save({ ...TAGS, updatedAt: null });
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json<SiteTags>();
    // Trimmed and normalised: the analytics id in capitals, the ad units without outer slashes.
    expect(saved).toEqual({
      analyticsId: "G-ABC123DEF4",
      pixelId: "1234567890123456",
      gptNetworkCode: "21812345",
      gptSlots: { "728x90": "offeratlas/header", "250x250": "offeratlas/sidebar" },
      consentRequired: true,
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
    });
    expect((await read()).json()).toEqual(saved);

    const audit = await t.db.query<{ actor_id: number; subject_type: string; before: SiteTags; after: SiteTags }>(
      sql`SELECT actor_id, subject_type, before, after FROM audit_log WHERE action = 'tags.update'`,
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor_id: admin.user.id,
      subject_type: "site_tags",
      before: { analyticsId: null, pixelId: null, gptSlots: {} },
      after: { analyticsId: "G-ABC123DEF4", gptSlots: { "728x90": "offeratlas/header" } },
    });

    // Clearing every id is a save too: the site is back to no tags.
    const cleared = await save({ updatedAt: saved.updatedAt, consentRequired: false });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toMatchObject({ analyticsId: null, pixelId: null, gptSlots: {}, consentRequired: false });
    const [row] = await t.db.query<{ analytics_id: string | null; consent_required: boolean }>(
      sql`SELECT analytics_id, consent_required FROM site_tags WHERE site_id = ${t.config.siteId}`,
    );
    expect(row).toEqual({ analytics_id: null, consent_required: false });
  });

  it("refuses a save made from a stale version with 409 and keeps the newer one", async () => {
    const current = (await read()).json<SiteTags>();
    const mine = await save({ ...TAGS, analyticsId: "G-FIRST0001", updatedAt: current.updatedAt });
    expect(mine.statusCode, mine.body).toBe(200);
    // A colleague still holding the version before that save.
    const stale = await save({ ...TAGS, analyticsId: "G-SECOND002", updatedAt: current.updatedAt });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ message: expect.stringContaining("Someone else changed the tag settings") });
    // A first save when one exists already is stale as well.
    expect((await save({ ...TAGS, updatedAt: null })).statusCode).toBe(409);
    expect((await read()).json<SiteTags>().analyticsId).toBe("G-FIRST0001");
    const audits = await t.db.query(sql`SELECT 1 FROM audit_log WHERE action = 'tags.update'`);
    expect(audits).toHaveLength(3);
  });

  it("refuses bad input with 400 and the field's message, saving nothing", async () => {
    const { updatedAt } = (await read()).json<SiteTags>();
    const cases: [object, RegExp][] = [
      [{ ...TAGS }, /updatedAt is required/],
      [{ ...TAGS, updatedAt: 5 }, /updatedAt is required/],
      [{ ...TAGS, updatedAt, analyticsId: "UA-12345-1" }, /Google Analytics 4 measurement id/],
      [{ ...TAGS, updatedAt, analyticsId: "G-" + "A".repeat(40) }, /Google Analytics 4 measurement id/],
      [{ ...TAGS, updatedAt, pixelId: "12345" }, /Meta Pixel's number/],
      [{ ...TAGS, updatedAt, pixelId: "12345678901x" }, /Meta Pixel's number/],
      [{ ...TAGS, updatedAt, pixelId: 1234567890123 }, /pixelId must be text/],
      [{ ...TAGS, updatedAt, gptNetworkCode: "12ab" }, /Network code must be/],
      [{ ...TAGS, updatedAt, gptNetworkCode: "" }, /Give the network code/],
      [{ ...TAGS, updatedAt, gptSlots: {} }, /Give an ad unit for at least one slot size/],
      [{ ...TAGS, updatedAt, gptSlots: { "728x90": "head er" } }, /Ad unit for 728x90 must be/],
      [{ ...TAGS, updatedAt, gptSlots: { "728x90": "a".repeat(201) } }, /at most 200 characters/],
      [{ ...TAGS, updatedAt, gptSlots: { "300x250": "x" } }, /takes the slot sizes 728x90/],
      [{ ...TAGS, updatedAt, gptSlots: ["x"] }, /gptSlots must be an object/],
      [{ ...TAGS, updatedAt, consentRequired: "no" }, /consentRequired must be true or false/],
    ];
    for (const [payload, message] of cases) {
      const res = await save(payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 120)).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(message);
    }
    expect((await read()).json<SiteTags>().updatedAt).toBe(updatedAt);
  });
});
