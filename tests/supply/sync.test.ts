// The sync engine against the fake Everflow server, through the app's own services:
// paging, counts, idempotency, history, retirement, faults and one run at a time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { createOfferSync, INTERRUPTED } from "#core/supply/sync.ts";
import { findOffer } from "#core/offers/detail.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { TEST_DATABASE_URL } from "../helpers/database.ts";
import { startFakeEverflow, type FakeEverflow } from "../fakes/everflow.ts";
import { signInWithRoles } from "../helpers/staff.ts";
import { addSource, API_KEY, historyOf, offerOf, SECRETS_KEY, sourceState } from "./helpers.ts";

let t: TestApp;
const fakes: FakeEverflow[] = [];
const fake = async (count: number) => {
  const server = await startFakeEverflow({ apiKey: API_KEY, count });
  fakes.push(server);
  return server;
};
const quiet = { info: () => {}, warn: () => {} };

beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 2, offers: 10, trafficSources: 1 }, env: { SECRETS_KEY } });
});
afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  await t?.close();
});

const offersOfSource = async (sourceId: number) => {
  const [row] = await t.db.query<{ n: number; lastUpdate: string | null; history: number }>(sql`
    SELECT count(*)::int AS n, max(updated_at)::text AS "lastUpdate",
      (SELECT count(*)::int FROM offer_history h JOIN offers o ON o.id = h.offer_id WHERE o.source_id = ${sourceId}) AS history
    FROM offers WHERE source_id = ${sourceId}`);
  return row;
};

describe("offer sync (Everflow)", () => {
  it("pages through 1,234 offers, writes each once with a history row, and a second run writes nothing", async () => {
    const server = await fake(1234);
    const { sourceId, networkId } = await addSource(t.db, t.app.services.secrets, { url: server.url, pageSize: 100 });
    let changes = 0;
    const sync = createOfferSync(t.db, {
      secrets: t.app.services.secrets,
      onCatalogueChanged: () => changes++,
      log: quiet,
    });

    const first = await sync.run(sourceId);
    expect(first).toMatchObject({ status: "succeeded", seen: 1234, new: 1234, changed: 0, unchanged: 0, skipped: 0 });
    expect(server.state.pageSizes).toEqual(Array(13).fill(100));
    expect(changes).toBe(1);
    const written = await offersOfSource(sourceId);
    expect(written.n).toBe(1234);
    expect(written.history).toBe(1234);
    const [run] = await t.db.query(sql`
      SELECT status, seen, new, changed, unchanged, retired, skipped, finished_at IS NOT NULL AS finished
      FROM offer_sync_runs WHERE id = ${first.runId}`);
    expect(run).toEqual({
      status: "succeeded",
      seen: 1234,
      new: 1234,
      changed: 0,
      unchanged: 0,
      retired: 0,
      skipped: 0,
      finished: true,
    });
    expect(await sourceState(t.db, sourceId)).toEqual({ state: "ok", lastError: null });
    const [network] = await t.db.query<{ offerCount: number; active: number }>(sql`
      SELECT offer_count AS "offerCount",
        (SELECT count(*)::int FROM offers WHERE network_id = ${networkId} AND status = 'active') AS active
      FROM networks WHERE id = ${networkId}`);
    expect(network.offerCount).toBe(network.active);
    expect(network.active).toBeGreaterThan(1000); // every tenth offer is paused

    const second = await sync.run(sourceId);
    expect(second).toMatchObject({ status: "succeeded", seen: 1234, new: 0, changed: 0, unchanged: 1234, retired: 0 });
    expect(changes).toBe(1);
    expect(await offersOfSource(sourceId)).toEqual(written);
  });

  it("a run with no changes writes no offer row, and the offer page still says when the source verified it", async () => {
    const server = await fake(300);
    const { sourceId } = await addSource(t.db, t.app.services.secrets, { url: server.url, retireAfterRuns: 2 });
    const sync = t.app.services.offerSync;
    // Each row version's transaction id and place: any UPDATE of a row changes both.
    const rowVersions = async () =>
      new Map(
        (
          await t.db.query<{ externalId: string; version: string }>(sql`
            SELECT external_id AS "externalId", xmin::text || ctid::text AS version FROM offers WHERE source_id = ${sourceId}`)
        ).map((r) => [r.externalId, r.version]),
      );
    const runStart = async (runId: number | null) =>
      (
        await t.db.query<{ at: string }>(
          sql`SELECT to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at FROM offer_sync_runs WHERE id = ${runId}`,
        )
      )[0].at;
    const verifiedAt = async (externalId: number) => {
      const offer = await findOffer(t.db, t.config.siteId, { id: (await offerOf(t.db, sourceId, externalId)).id });
      return offer?.verification?.at;
    };

    const first = await sync.run(sourceId);
    const written = await rowVersions();
    expect(written.size).toBe(300);
    expect(await verifiedAt(5)).toBe(await runStart(first.runId));

    const second = await sync.run(sourceId);
    expect(second).toMatchObject({ status: "succeeded", unchanged: 300, new: 0, changed: 0 });
    expect(await rowVersions()).toEqual(written);
    // Unchanged and unwritten, yet verified by the second run.
    expect(await verifiedAt(5)).toBe(await runStart(second.runId));

    // One payout moves and one offer leaves the feed: only those two rows are written.
    server.state.versions.set(8, 3);
    server.state.removed.add(5);
    const third = await sync.run(sourceId);
    expect(third).toMatchObject({ status: "succeeded", seen: 299, changed: 1, unchanged: 298 });
    const after = await rowVersions();
    expect([...written].filter(([id, version]) => after.get(id) !== version).map(([id]) => id)).toEqual(["5", "8"]);
    expect(await verifiedAt(8)).toBe(await runStart(third.runId));
    expect(await verifiedAt(12)).toBe(await runStart(third.runId));
    // Missed once: still listed, verified when the second run last saw it.
    expect(await offerOf(t.db, sourceId, 5)).toMatchObject({ status: "active", missedRuns: 1 });
    expect(await verifiedAt(5)).toBe(await runStart(second.runId));

    // Missed twice: retired, its last-seen time kept.
    await sync.run(sourceId);
    expect(await offerOf(t.db, sourceId, 5)).toMatchObject({ status: "retired", missedRuns: 2 });
    expect(await verifiedAt(5)).toBe(await runStart(second.runId));

    // Back in the feed: written again, verified now, misses start over.
    server.state.removed.delete(5);
    const back = await sync.run(sourceId);
    expect(back).toMatchObject({ status: "succeeded", changed: 1, unchanged: 299 });
    expect(await offerOf(t.db, sourceId, 5)).toMatchObject({ status: "active", missedRuns: 0 });
    expect(await verifiedAt(5)).toBe(await runStart(back.runId));
  });

  it("an unchanged offer missed by one run and seen by the next starts its misses over", async () => {
    const server = await fake(10);
    const { sourceId } = await addSource(t.db, t.app.services.secrets, { url: server.url, retireAfterRuns: 2 });
    const sync = t.app.services.offerSync;
    await sync.run(sourceId);
    server.state.removed.add(4);
    await sync.run(sourceId);
    expect(await offerOf(t.db, sourceId, 4)).toMatchObject({ status: "active", missedRuns: 1 });
    server.state.removed.delete(4);
    expect(await sync.run(sourceId)).toMatchObject({ status: "succeeded", unchanged: 10, changed: 0 });
    expect(await offerOf(t.db, sourceId, 4)).toMatchObject({ status: "active", missedRuns: 0 });
    server.state.removed.add(4);
    await sync.run(sourceId);
    // One miss again, not two: not retired.
    expect(await offerOf(t.db, sourceId, 4)).toMatchObject({ status: "active", missedRuns: 1 });
  });

  it("marks a run left 'running' by a process that died as failed (interrupted) on the source's next run", async () => {
    const server = await fake(10);
    const { sourceId } = await addSource(t.db, t.app.services.secrets, { url: server.url });
    const [dead] = await t.db.query<{ id: number }>(
      sql`INSERT INTO offer_sync_runs (source_id) VALUES (${sourceId}) RETURNING id`,
    );
    const run = await t.app.services.offerSync.run(sourceId);
    expect(run).toMatchObject({ status: "succeeded", new: 10 });
    const rows = await t.db.query(sql`
      SELECT id, status, error, finished_at IS NOT NULL AS finished FROM offer_sync_runs
      WHERE source_id = ${sourceId} ORDER BY id`);
    expect(rows).toEqual([
      { id: dead.id, status: "failed", error: INTERRUPTED, finished: true },
      { id: run.runId, status: "succeeded", error: null, finished: true },
    ]);
  });

  it("keeps an offer the operator retired, and its network's retired offers, out whatever the source says", async () => {
    const server = await fake(12);
    const { sourceId, networkId } = await addSource(t.db, t.app.services.secrets, { url: server.url });
    const sync = t.app.services.offerSync;
    await sync.run(sourceId);
    const admin = { siteId: t.config.siteId, userId: (await signInWithRoles(t, ["admin"])).user.id };
    const chosen = await offerOf(t.db, sourceId, 3);
    // The editor takes ids as the address gives them (text).
    const editable = await t.app.services.offers.editor.get(String(chosen.id));
    await t.app.services.offers.editor.retire(admin, String(chosen.id), { updatedAt: editable.updatedAt });

    // Still in the feed, unchanged: it stays retired, and the run writes nothing for it.
    expect(await sync.run(sourceId)).toMatchObject({ status: "succeeded", seen: 12, unchanged: 12, changed: 0 });
    expect((await offerOf(t.db, sourceId, 3)).status).toBe("retired");
    // Its payout changes upstream: the change is kept (and in its history), the retirement too.
    server.state.versions.set(3, 5);
    expect(await sync.run(sourceId)).toMatchObject({ changed: 1 });
    expect((await offerOf(t.db, sourceId, 3)).status).toBe("retired");

    // A retired network's offers stay out of search through its source's runs, and return with it.
    const search = async () =>
      (
        await t.app.inject({ method: "POST", url: "/api/offers/search", payload: { networks: [networkId], page: 1 } })
      ).json<{
        total: number;
      }>().total;
    const [{ listed }] = await t.db.query<{ listed: number }>(
      sql`SELECT count(*)::int AS listed FROM offers WHERE source_id = ${sourceId} AND status = 'active'`,
    );
    expect(listed).toBeGreaterThan(5);
    expect(await search()).toBe(listed);
    await t.app.services.networkEditor.retire(admin, networkId, {});
    expect(await sync.run(sourceId)).toMatchObject({ status: "succeeded", unchanged: 12, changed: 0 });
    expect(await search()).toBe(0);
    await t.app.services.networkEditor.restore(admin, networkId, {});
    expect(await search()).toBe(listed);
  });

  it("a payout change writes the offer and exactly one history row", async () => {
    const server = await fake(30);
    const { sourceId } = await addSource(t.db, t.app.services.secrets, { url: server.url });
    const sync = t.app.services.offerSync;
    await sync.run(sourceId);
    const before = await offerOf(t.db, sourceId, 4); // a CPA offer: the version moves its amount
    server.state.versions.set(4, 7);

    const run = await sync.run(sourceId);
    expect(run).toMatchObject({ status: "succeeded", seen: 30, new: 0, changed: 1, unchanged: 29 });
    const after = await offerOf(t.db, sourceId, 4);
    expect(after.id).toBe(before.id);
    expect(after.slug).toBe(before.slug);
    expect(after.payoutAmount).toBe(before.payoutAmount! + 7);
    expect((await historyOf(t.db, after.id)).map((h) => h.payoutAmount)).toEqual([
      before.payoutAmount,
      before.payoutAmount! + 7,
    ]);
  });

  it("retires an offer missing from retire_after_runs successful runs; a failed run is not a miss", async () => {
    const server = await fake(20);
    const { sourceId, networkId } = await addSource(t.db, t.app.services.secrets, {
      url: server.url,
      retireAfterRuns: 2,
    });
    const sync = t.app.services.offerSync;
    await sync.run(sourceId);
    const countBefore = (
      await t.db.query<{ n: number }>(sql`SELECT offer_count AS n FROM networks WHERE id = ${networkId}`)
    )[0].n;
    server.state.removed.add(3);

    expect(await sync.run(sourceId)).toMatchObject({ status: "succeeded", seen: 19, unchanged: 19, retired: 0 });
    expect(await offerOf(t.db, sourceId, 3)).toMatchObject({ status: "active", missedRuns: 1 });

    server.state.apiKey = "rotated";
    expect(await sync.run(sourceId)).toMatchObject({ status: "failed" });
    expect(await offerOf(t.db, sourceId, 3)).toMatchObject({ status: "active", missedRuns: 1 });
    server.state.apiKey = API_KEY;

    expect(await sync.run(sourceId)).toMatchObject({ status: "succeeded", seen: 19, retired: 1 });
    const retired = await offerOf(t.db, sourceId, 3);
    expect(retired).toMatchObject({ status: "retired", missedRuns: 2 });
    expect((await historyOf(t.db, retired.id)).map((h) => h.status)).toEqual(["active", "retired"]);
    const countAfter = (
      await t.db.query<{ n: number }>(sql`SELECT offer_count AS n FROM networks WHERE id = ${networkId}`)
    )[0].n;
    expect(countAfter).toBe(countBefore - 1);

    // Back in the feed: listed again, with its history saying so.
    server.state.removed.delete(3);
    expect(await sync.run(sourceId)).toMatchObject({ status: "succeeded", changed: 1, unchanged: 19 });
    expect(await offerOf(t.db, sourceId, 3)).toMatchObject({ status: "active", missedRuns: 0 });
  });

  it("401 fails the run and marks the source failing with a message for the operator", async () => {
    const server = await fake(5);
    const { sourceId } = await addSource(t.db, t.app.services.secrets, { url: server.url, apiKey: "wrong-key" });
    const run = await t.app.services.offerSync.run(sourceId);
    expect(run.status).toBe("failed");
    expect(run.error).toMatch(/^Everflow refused the API key \(401\)/);
    expect(await sourceState(t.db, sourceId)).toEqual({ state: "failing", lastError: run.error });
    const [row] = await t.db.query(sql`SELECT status, error FROM offer_sync_runs WHERE id = ${run.runId}`);
    expect(row).toEqual({ status: "failed", error: run.error });

    server.state.apiKey = "wrong-key";
    expect(await t.app.services.offerSync.run(sourceId)).toMatchObject({ status: "succeeded", new: 5 });
    expect(await sourceState(t.db, sourceId)).toEqual({ state: "ok", lastError: null });
  });

  it("backs off on 429 (Retry-After, capped) and 5xx, and gives up with a message after four attempts", async () => {
    const server = await fake(250);
    const { sourceId } = await addSource(t.db, t.app.services.secrets, { url: server.url });
    const sync = createOfferSync(t.db, {
      secrets: t.app.services.secrets,
      onCatalogueChanged: () => {},
      log: quiet,
      http: { retryBaseMs: 5, retryMaxMs: 100 },
    });

    server.fail(429, 1, "120");
    const started = Date.now();
    expect(await sync.run(sourceId)).toMatchObject({ status: "succeeded", seen: 250, new: 250 });
    expect(Date.now() - started).toBeLessThan(5000); // Retry-After 120 s waited at most the cap

    server.fail(500, 3);
    const requests = server.state.requests;
    expect(await sync.run(sourceId)).toMatchObject({ status: "succeeded", unchanged: 250 });
    expect(server.state.requests - requests).toBe(3 + 3);

    server.fail(500, 4);
    const failed = await sync.run(sourceId);
    expect(failed.status).toBe("failed");
    expect(failed.error).toBe("Everflow answered 500 on page 1; gave up after 4 attempts");
    expect(await sourceState(t.db, sourceId)).toEqual({ state: "ok", lastError: failed.error });
  });

  it("a fault mid-run keeps the batches already written whole, and the next run completes", async () => {
    const server = await fake(250);
    const { sourceId } = await addSource(t.db, t.app.services.secrets, { url: server.url });
    let calls = 0;
    const flaky: typeof fetch = (input, init) => {
      if (++calls === 3) return Promise.reject(new TypeError("socket hang up"));
      return fetch(input, init);
    };
    const options = { secrets: t.app.services.secrets, onCatalogueChanged: () => {}, log: quiet, batchSize: 100 };
    const broken = await createOfferSync(t.db, { ...options, fetch: flaky, http: { attempts: 1 } }).run(sourceId);
    expect(broken).toMatchObject({ status: "failed", seen: 200, new: 200, skipped: 0 });
    expect(broken.error).toBe("Everflow could not be reached for page 3 (socket hang up); gave up after 1 attempt");
    const [run] = await t.db.query(sql`SELECT status, seen, new FROM offer_sync_runs WHERE id = ${broken.runId}`);
    expect(run).toEqual({ status: "failed", seen: 200, new: 200 });
    expect(await offersOfSource(sourceId)).toMatchObject({ n: 200, history: 200 });

    const next = await createOfferSync(t.db, options).run(sourceId);
    expect(next).toMatchObject({ status: "succeeded", seen: 250, new: 50, changed: 0, unchanged: 200, retired: 0 });
    expect(await offersOfSource(sourceId)).toMatchObject({ n: 250, history: 250 });
  });

  it("skips malformed records, counts them by reason, and keeps the rest", async () => {
    const server = await fake(12);
    server.state.overrides.set(1, null);
    server.state.overrides.set(2, { name: "No id" });
    server.state.overrides.set(3, { network_offer_id: 3, name: "Bad\u0000name", offer_status: "active" });
    server.state.overrides.set(4, {
      network_offer_id: 4,
      name: "Odd money",
      offer_status: "active",
      currency_id: "ZZZ",
    });
    server.state.overrides.set(5, {
      network_offer_id: 5,
      name: "Per mille",
      offer_status: "active",
      currency_id: "USD",
      relationship: { payouts: { entries: [{ payout_type: "cpm", payout_amount: 2 }] } },
    });
    server.state.overrides.set(6, {
      network_offer_id: 6,
      name: "Negative",
      offer_status: "active",
      currency_id: "USD",
      relationship: { payouts: { entries: [{ payout_type: "cpa", payout_amount: -4 }] } },
    });
    server.state.overrides.set(7, "a string");
    const { sourceId } = await addSource(t.db, t.app.services.secrets, { url: server.url });
    const run = await t.app.services.offerSync.run(sourceId);
    expect(run).toMatchObject({ status: "succeeded", seen: 12, new: 5, skipped: 7 });
    expect(run.skippedReasons).toEqual({
      "not an object": 2,
      "missing network_offer_id": 1,
      "missing name": 1,
      "unknown currency ZZZ": 1,
      "unsupported payout type cpm": 1,
      "invalid payout": 1,
    });
    const [row] = await t.db.query(
      sql`SELECT skipped, skipped_reasons AS reasons FROM offer_sync_runs WHERE id = ${run.runId}`,
    );
    expect(row).toEqual({ skipped: 7, reasons: run.skippedReasons });
  });

  it("maps fields, queues unknown platform categories unmapped, and applies a mapping on the next run", async () => {
    const server = await fake(8);
    const { sourceId } = await addSource(t.db, t.app.services.secrets, { url: server.url });
    const sync = t.app.services.offerSync;
    await sync.run(sourceId);

    // Offer 4: cpa, EUR (n % 5 = 4), category "Finance", countries AU and FR (CN excluded).
    expect(await offerOf(t.db, sourceId, 4)).toMatchObject({
      name: "Fake Offer 4",
      description: "Offer 4 & friends",
      payoutType: "CPA",
      payoutAmount: 14,
      payoutPercent: null,
      payoutUsd: 15.12,
      currency: "EUR",
      countries: ["AU", "FR"],
      categoryIds: [],
      landingDomain: "brand-4.example.com",
      status: "active",
      verified: true,
    });
    expect(await offerOf(t.db, sourceId, 1)).toMatchObject({ payoutType: "CPS", payoutAmount: null, payoutPercent: 6 });
    expect(await offerOf(t.db, sourceId, 2)).toMatchObject({ payoutType: "CPC", payoutAmount: 12 });
    expect(await offerOf(t.db, sourceId, 3)).toMatchObject({
      payoutType: "revshare",
      payoutAmount: 13,
      payoutPercent: 8,
    });
    const queued = await t.db.query<{ name: string; categoryId: number | null }>(sql`
      SELECT name, category_id AS "categoryId" FROM platform_categories WHERE platform = 'everflow' ORDER BY name`);
    expect(queued).toEqual(
      ["Finance", "Gaming", "Health & Beauty", "Sweepstakes"].map((name) => ({ name, categoryId: null })),
    );
    const tracking = await t.db.query(
      sql`SELECT 1 FROM offers WHERE source_id = ${sourceId} AND description LIKE '%aff=secret%'`,
    );
    expect(tracking).toEqual([]);

    // An operator maps "Finance" to a vertical: the offers in it change on the next run.
    const [vertical] = await t.db.query<{ id: number }>(sql`SELECT id FROM categories ORDER BY id LIMIT 1`);
    await t.db.query(
      sql`UPDATE platform_categories SET category_id = ${vertical.id} WHERE platform = 'everflow' AND name = 'Finance'`,
    );
    const run = await sync.run(sourceId);
    expect(run).toMatchObject({ status: "succeeded", changed: 2, unchanged: 6 }); // offers 4 and 8
    expect((await offerOf(t.db, sourceId, 4)).categoryIds).toEqual([vertical.id]);
    // A vertical is no payout change: no history row for it.
    expect(await historyOf(t.db, (await offerOf(t.db, sourceId, 4)).id)).toHaveLength(1);
  });

  it("runs one sync of a source at a time", async () => {
    const server = await fake(300);
    const { sourceId } = await addSource(t.db, t.app.services.secrets, { url: server.url });
    const sync = t.app.services.offerSync;
    const [a, b] = await Promise.all([sync.run(sourceId), sync.run(sourceId)]);
    expect([a.status, b.status].sort()).toEqual(["busy", "succeeded"]);
    expect([a, b].find((r) => r.status === "busy")).toMatchObject({
      runId: null,
      error: "A sync of this source is already running",
    });
  });

  it.runIf(TEST_DATABASE_URL)("another process's run holds the source (advisory lock)", async () => {
    const server = await fake(300);
    const { sourceId } = await addSource(t.db, t.app.services.secrets, { url: server.url });
    const other = createOfferSync(t.db, { secrets: t.app.services.secrets, onCatalogueChanged: () => {}, log: quiet });
    const [a, b] = await Promise.all([t.app.services.offerSync.run(sourceId), other.run(sourceId)]);
    expect([a.status, b.status].sort()).toEqual(["busy", "succeeded"]);
    expect(await other.run(sourceId)).toMatchObject({ status: "succeeded", unchanged: 300 });
  });
});
