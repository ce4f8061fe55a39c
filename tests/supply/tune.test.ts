// The TUNE (HasOffers) connector: its mapping of one record (payout types,
// currencies, countries, categories, status and expiry, malformed input), its
// paging, in-body errors and rate limits against the fake server, and whole
// syncs through the app's services (counts, idempotency, history, failures).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { createOfferSync } from "#core/supply/sync.ts";
import { PlatformAuthError, PlatformError } from "#core/supply/platforms/http.ts";
import { mapTuneOffer, tunePages, tuneSettings } from "#core/supply/platforms/tune.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { startFakeTune, tuneOffer, type FakeTune } from "../fakes/tune.ts";
import { addSource, API_KEY, historyOf, offerOf, SECRETS_KEY, sourceState } from "./helpers.ts";

type Record_ = { Offer: Record<string, unknown>; [contained: string]: unknown };
/** Offer n with some of its Offer fields replaced. */
const withOffer = (fields: Record<string, unknown>, n = 1): Record_ => {
  const raw = tuneOffer(n) as Record_;
  return { ...raw, Offer: { ...raw.Offer, ...fields } };
};
const mapped = (raw: unknown, now?: Date) => {
  const result = mapTuneOffer(raw, now);
  return result.ok ? result.offer : result.reason;
};

describe("mapTuneOffer", () => {
  it("maps TUNE's payout types onto the directory's, amount and percent as each type pays", () => {
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [
        { payout_type: "cpa_flat", default_payout: "25.555", percent_payout: "9" },
        { payoutType: "CPA", payoutAmount: 25.56, payoutPercent: null },
      ],
      [
        { payout_type: "cpa_percentage", default_payout: "0.00", percent_payout: "12.5" },
        { payoutType: "CPS", payoutAmount: null, payoutPercent: 12.5 },
      ],
      [
        { payout_type: "cpa_both", default_payout: "30", percent_payout: 10 },
        { payoutType: "revshare", payoutAmount: 30, payoutPercent: 10 },
      ],
      [
        { payout_type: "cpc", default_payout: "0.40", percent_payout: null },
        { payoutType: "CPC", payoutAmount: 0.4, payoutPercent: null },
      ],
    ];
    for (const [fields, expected] of cases)
      expect(mapped(withOffer(fields)), JSON.stringify(fields)).toMatchObject(expected);
    expect(mapped(withOffer({ payout_type: "cpm", default_payout: "3" }))).toBe("unsupported payout type cpm");
    expect(mapped(withOffer({ payout_type: undefined }))).toBe("unsupported payout type (none)");
    expect(mapped(withOffer({ payout_type: "cpa_flat", default_payout: "lots" }))).toBe("invalid payout");
    expect(mapped(withOffer({ payout_type: "cpa_percentage", percent_payout: null }))).toBe("invalid payout");
    expect(mapped(withOffer({ payout_type: "cpa_flat", default_payout: "-4" }))).toBe("invalid payout");
  });

  it("reads currencies as upper-case ISO codes with a reference rate, and skips others", () => {
    expect(mapped(withOffer({ currency: "gbp" }))).toMatchObject({ currency: "GBP" });
    expect(mapped(withOffer({ currency: "XYZ" }))).toBe("unknown currency XYZ");
    // null means the network's default currency: unknown unless the source's settings name it.
    expect(mapped(withOffer({ currency: null }))).toBe("unknown currency (none)");
  });

  it("takes the targeted countries as ISO codes, every category name, the preview URL and its domain", () => {
    const raw = {
      ...tuneOffer(9),
      Country: {
        us: { code: "us", name: "United States" },
        UK: { code: "UK", name: "United Kingdom" },
        DE: { code: "DE", name: "Germany" },
        EU: { code: "EU", name: "Europe" },
        XX: "junk",
      },
      OfferCategory: { "7": { id: "7", name: "Sweepstakes" }, "2": { id: "2", name: "Finance" }, "3": { id: "3" } },
    };
    expect(mapped(raw)).toMatchObject({
      externalId: "9",
      name: "Fake Offer 9",
      description: "Offer 9 & friends",
      countries: ["DE", "GB", "US"],
      categories: ["Finance", "Sweepstakes"],
      status: "paused",
      previewUrl: "https://www.brand-9.example.com/landing?x=1",
      landingDomain: "brand-9.example.com",
    });
    // PHP's empty map is an empty list: no countries, no categories.
    expect(mapped({ ...tuneOffer(1), Country: [], OfferCategory: [] })).toMatchObject({
      countries: [],
      categories: [],
    });
    // No tracking link is asked for, and none would be kept.
    expect(JSON.stringify(mapped(withOffer({ tracking_url: "https://track.example.com/1?aff=secret" })))).not.toContain(
      "aff=secret",
    );
  });

  it("keeps active and paused, pauses pending, expired and past their expiration_date, skips deleted", () => {
    const now = new Date("2026-06-01T12:00:00Z");
    const status = (fields: Record<string, unknown>) => {
      const result = mapTuneOffer(withOffer(fields), now);
      return result.ok ? result.offer.status : result.reason;
    };
    expect(status({ status: "active", expiration_date: "2026-06-02" })).toBe("active");
    expect(status({ status: "active", expiration_date: "0000-00-00 00:00:00" })).toBe("active");
    expect(status({ status: "active", expiration_date: null })).toBe("active");
    expect(status({ status: "active", expiration_date: "2026-06-01 11:59:00" })).toBe("paused");
    expect(status({ status: "active", expiration_date: "2026-05-31" })).toBe("paused");
    expect(status({ status: "paused" })).toBe("paused");
    expect(status({ status: "pending" })).toBe("paused");
    expect(status({ status: "expired" })).toBe("paused");
    expect(status({ status: "deleted" })).toBe("status deleted");
    expect(status({ status: undefined })).toBe("status missing");
  });

  it("skips malformed records with a reason and never throws", () => {
    const hostile: unknown[] = [
      null,
      42,
      [],
      {},
      { Offer: "x" },
      { Offer: { id: "abc", name: "x" } },
      { Offer: { id: "1.5", name: "x" } },
      { Offer: { id: "5", name: "   " } },
      { Offer: { id: "5", name: "\ud800" } },
      { Offer: { id: "5", name: "Ok", status: "active" } },
      withOffer({ preview_url: "javascript:alert(1)" }, 2),
    ];
    expect(hostile.map((raw) => mapped(raw))).toEqual([
      "not an Offer record",
      "not an Offer record",
      "not an Offer record",
      "not an Offer record",
      "not an Offer record",
      "missing id",
      "missing id",
      "missing name",
      "missing name",
      "unknown currency (none)",
      expect.objectContaining({ previewUrl: null, landingDomain: null }),
    ]);
  });
});

describe("tuneSettings", () => {
  it("keeps page_size within 1–1000, a plain network_id and a known currency; drops the rest", () => {
    expect(tuneSettings({ page_size: 250, network_id: "acme", currency: "eur" })).toEqual({
      pageSize: 250,
      networkId: "acme",
      currency: "EUR",
    });
    expect(tuneSettings({ page_size: 5000, network_id: "a&b=c", currency: "ZZZ" })).toEqual({
      pageSize: undefined,
      networkId: undefined,
      currency: undefined,
    });
    expect(tuneSettings({ page_size: "0" }).pageSize).toBeUndefined();
  });
});

describe("tunePages", () => {
  let server: FakeTune;
  beforeAll(async () => {
    server = await startFakeTune({ apiKey: "key-1", count: 205 });
  });
  afterAll(() => server.close());
  const fast = { retryBaseMs: 1, retryMaxMs: 20 };
  const read = async (options: Partial<Parameters<typeof tunePages>[0]>) => {
    const sizes: number[] = [];
    for await (const page of tunePages({ endpoint: server.url, apiKey: "key-1", ...fast, ...options }))
      sizes.push(page.length);
    return sizes;
  };

  it("asks page after page with the key, limit and contained models, and stops at pageCount", async () => {
    let before = server.state.requests;
    expect(await read({ endpoint: `${server.url}/`, pageSize: 50 })).toEqual([50, 50, 50, 50, 5]);
    expect(server.state.requests - before).toBe(5);
    const q = server.state.lastQuery;
    expect([q.get("Target"), q.get("Method"), q.get("api_key"), q.get("limit"), q.get("page")]).toEqual([
      "Affiliate_Offer",
      "findAll",
      "key-1",
      "50",
      "5",
    ]);
    expect(q.getAll("contain[]")).toEqual(["OfferCategory", "Country"]);
    expect(q.has("NetworkId")).toBe(false);

    server.state.count = 200; // a full last page: pageCount ends it without an empty request
    before = server.state.requests;
    expect(await read({ pageSize: 100, networkId: "acme" })).toEqual([100, 100]);
    expect(server.state.requests - before).toBe(2);
    expect(server.state.lastQuery.get("NetworkId")).toBe("acme");

    server.state.count = 0; // no offers: one request, no page
    before = server.state.requests;
    expect(await read({})).toEqual([]);
    expect(server.state.requests - before).toBe(1);
    server.state.count = 205;
  });

  it("gives offers without a currency the network's default named in the settings", async () => {
    server.state.overrides.set(1, withOffer({ currency: null }, 1));
    const pages = tunePages({ endpoint: server.url, apiKey: "key-1", pageSize: 3, currency: "GBP", ...fast });
    const first = (await pages.next()).value as Record_[];
    await pages.return(undefined);
    server.state.overrides.clear();
    expect(first.map((r) => r.Offer.currency)).toEqual(["GBP", "USD", "USD"]);
  });

  it("turns the in-body refusal of a key into a PlatformAuthError, without retrying", async () => {
    const before = server.state.requests;
    const refused = tunePages({ endpoint: server.url, apiKey: "nope", ...fast }).next();
    await expect(refused).rejects.toBeInstanceOf(PlatformAuthError);
    await expect(tunePages({ endpoint: server.url, apiKey: "nope", ...fast }).next()).rejects.toThrow(
      /^TUNE refused the API key \(Invalid API key provided\): check the source's affiliate API key/,
    );
    expect(server.state.requests - before).toBe(2);
  });

  it("never repeats the key (it travels in the query string) in a message", async () => {
    const echo: typeof fetch = async () =>
      Response.json({
        response: { status: -1, errors: [{ publicMessage: "Invalid api_key secret-123 for network" }] },
      });
    await expect(tunePages({ endpoint: server.url, apiKey: "secret-123", fetch: echo }).next()).rejects.toThrow(
      "TUNE refused the API key (Invalid api_key [api key] for network)",
    );
  });

  it("waits out its in-body rate limit, and gives up after the attempts with a clear message", async () => {
    server.fail("rate-limit", 2);
    let before = server.state.requests;
    expect(await read({ pageSize: 100 })).toEqual([100, 100, 5]);
    expect(server.state.requests - before).toBe(2 + 3);

    server.fail("rate-limit", 3);
    before = server.state.requests;
    const pages = tunePages({ endpoint: server.url, apiKey: "key-1", attempts: 3, ...fast });
    await expect(pages.next()).rejects.toThrow(
      "TUNE kept answering its rate limit on page 1 (API usage exceeded rate limit. Please wait and try again.); gave up after 3 attempts",
    );
    expect(server.state.requests - before).toBe(3);
  });

  it("answers a PlatformError for anything not of the documented shape", async () => {
    const answering =
      (body: unknown): typeof fetch =>
      async () =>
        Response.json(body);
    const first = (body: unknown) =>
      tunePages({ endpoint: server.url, apiKey: "k", fetch: answering(body), attempts: 1 }).next();
    await expect(first({ offers: [] })).rejects.toThrow(new PlatformError(`TUNE's page 1 has no "response" envelope`));
    await expect(first({ response: { status: 1, data: "" } })).rejects.toThrow(`TUNE's page 1 has no paged "data"`);
    await expect(first({ response: { status: -1, errors: [{ err_msg: "Field limit is invalid" }] } })).rejects.toThrow(
      "TUNE answered an error on page 1: Field limit is invalid",
    );
    const notJson: typeof fetch = async () => new Response("<html>", { status: 200 });
    await expect(tunePages({ endpoint: server.url, apiKey: "k", fetch: notJson }).next()).rejects.toThrow(
      "TUNE answered page 1 with something that is not JSON",
    );
  });
});

describe("offer sync (TUNE)", () => {
  let t: TestApp;
  const fakes: FakeTune[] = [];
  const fake = async (count: number) => {
    const server = await startFakeTune({ apiKey: API_KEY, count });
    fakes.push(server);
    return server;
  };
  const tuneSource = (url: string, extra: { apiKey?: string; settings?: Record<string, unknown> } = {}) =>
    addSource(t.db, t.app.services.secrets, { platform: "tune", url, settings: { page_size: 100 }, ...extra });
  const quiet = { info: () => {}, warn: () => {} };
  const fastSync = () =>
    createOfferSync(t.db, {
      secrets: t.app.services.secrets,
      onCatalogueChanged: () => {},
      log: quiet,
      http: { retryBaseMs: 5, retryMaxMs: 100 },
    });

  beforeAll(async () => {
    t = await createTestApp({ seed: { networks: 1, offers: 5, trafficSources: 1 }, env: { SECRETS_KEY } });
  });
  afterAll(async () => {
    await Promise.all(fakes.map((f) => f.close()));
    await t?.close();
  });

  it("pages through the catalogue with the page_size setting, and a second run changes nothing", async () => {
    const server = await fake(250);
    const { sourceId } = await tuneSource(server.url);
    const sync = t.app.services.offerSync;
    expect(await sync.run(sourceId)).toMatchObject({ status: "succeeded", seen: 250, new: 250, skipped: 0 });
    expect(server.state.pageSizes).toEqual([100, 100, 100]);
    expect(await sourceState(t.db, sourceId)).toEqual({ state: "ok", lastError: null });
    expect(await sync.run(sourceId)).toMatchObject({
      status: "succeeded",
      seen: 250,
      new: 0,
      changed: 0,
      unchanged: 250,
      retired: 0,
    });
    const [{ history }] = await t.db.query<{ history: number }>(sql`
      SELECT count(*)::int AS history FROM offer_history h JOIN offers o ON o.id = h.offer_id WHERE o.source_id = ${sourceId}`);
    expect(history).toBe(250);

    // A page size out of bounds falls back to the connector's own (500).
    const other = await fake(30);
    const { sourceId: second } = await tuneSource(other.url, { settings: { page_size: 50_000 } });
    expect(await sync.run(second)).toMatchObject({ status: "succeeded", new: 30 });
    expect(other.state.pageSizes).toEqual([500]);
  });

  it("maps fields, and queues TUNE's categories for the console unmapped", async () => {
    const server = await fake(8);
    const { sourceId } = await tuneSource(server.url);
    await t.app.services.offerSync.run(sourceId);
    // Offer 4: cpa_flat 14 in EUR, category Finance, countries FR and AU.
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
      previewUrl: "https://www.brand-4.example.com/landing?x=1",
      status: "active",
    });
    expect(await offerOf(t.db, sourceId, 1)).toMatchObject({
      payoutType: "CPS",
      payoutAmount: null,
      payoutPercent: 6,
      payoutUsd: null,
      currency: "USD",
      countries: ["CA", "GB"], // HasOffers' "UK"
    });
    expect(await offerOf(t.db, sourceId, 2)).toMatchObject({ payoutType: "CPC", payoutAmount: 12, payoutUsd: 12 });
    expect(await offerOf(t.db, sourceId, 3)).toMatchObject({
      payoutType: "revshare",
      payoutAmount: 13,
      payoutPercent: 8,
    });
    const queued = await t.db.query<{ name: string; categoryId: number | null }>(sql`
      SELECT name, category_id AS "categoryId" FROM platform_categories WHERE platform = 'tune' ORDER BY name`);
    expect(queued).toEqual(
      ["Finance", "Gaming", "Health & Beauty", "Sweepstakes"].map((name) => ({ name, categoryId: null })),
    );
  });

  it("a payout change writes the offer and exactly one history row", async () => {
    const server = await fake(30);
    const { sourceId } = await tuneSource(server.url);
    const sync = t.app.services.offerSync;
    await sync.run(sourceId);
    const before = await offerOf(t.db, sourceId, 4);
    server.state.versions.set(4, 7);
    expect(await sync.run(sourceId)).toMatchObject({ status: "succeeded", new: 0, changed: 1, unchanged: 29 });
    const after = await offerOf(t.db, sourceId, 4);
    expect(after.id).toBe(before.id);
    expect(after.payoutAmount).toBe(before.payoutAmount! + 7);
    expect((await historyOf(t.db, after.id)).map((h) => h.payoutAmount)).toEqual([
      before.payoutAmount,
      before.payoutAmount! + 7,
    ]);
  });

  it("a refused key fails the run and marks the source failing with what to fix", async () => {
    const server = await fake(5);
    const { sourceId } = await tuneSource(server.url, { apiKey: "wrong-key" });
    const run = await t.app.services.offerSync.run(sourceId);
    expect(run.status).toBe("failed");
    expect(run.error).toBe(
      "TUNE refused the API key (Invalid API key provided): check the source's affiliate API key (from the network's affiliate account) and that the network allows this server's IP.",
    );
    expect(await sourceState(t.db, sourceId)).toEqual({ state: "failing", lastError: run.error });
    expect(run.error).not.toContain("wrong-key");

    server.state.apiKey = "wrong-key";
    expect(await t.app.services.offerSync.run(sourceId)).toMatchObject({ status: "succeeded", new: 5 });
    expect(await sourceState(t.db, sourceId)).toEqual({ state: "ok", lastError: null });
  });

  it("retries 429, 5xx and the in-body rate limit, then fails the run with a clear message", async () => {
    const server = await fake(150);
    const { sourceId } = await tuneSource(server.url);
    const sync = fastSync();

    server.fail(429, 1, "120");
    const started = Date.now();
    expect(await sync.run(sourceId)).toMatchObject({ status: "succeeded", seen: 150, new: 150 });
    expect(Date.now() - started).toBeLessThan(5000); // Retry-After 120 s waited at most the cap

    server.fail("rate-limit", 2);
    let requests = server.state.requests;
    expect(await sync.run(sourceId)).toMatchObject({ status: "succeeded", unchanged: 150 });
    expect(server.state.requests - requests).toBe(2 + 2);

    server.fail("rate-limit", 4);
    requests = server.state.requests;
    const limited = await sync.run(sourceId);
    expect(limited.status).toBe("failed");
    expect(limited.error).toBe(
      "TUNE kept answering its rate limit on page 1 (API usage exceeded rate limit. Please wait and try again.); gave up after 4 attempts",
    );
    expect(server.state.requests - requests).toBe(4);

    server.fail(500, 4);
    const failed = await sync.run(sourceId);
    expect(failed.error).toBe("TUNE answered 500 on page 1; gave up after 4 attempts");
    expect(await sourceState(t.db, sourceId)).toEqual({ state: "ok", lastError: failed.error });
  });

  it("skips malformed records, counts them by reason, and writes the rest", async () => {
    const server = await fake(12);
    server.state.overrides.set(1, null);
    server.state.overrides.set(2, { Offer: { name: "No id" } });
    server.state.overrides.set(3, withOffer({ name: "Bad\u0000name" }, 3));
    server.state.overrides.set(4, withOffer({ currency: "ZZZ" }, 4));
    server.state.overrides.set(5, withOffer({ payout_type: "cpm", default_payout: "2" }, 5));
    server.state.overrides.set(6, withOffer({ payout_type: "cpa_flat", default_payout: "-4" }, 6));
    server.state.overrides.set(7, withOffer({ status: "deleted" }, 7));
    server.state.overrides.set(8, "a string");
    const { sourceId } = await tuneSource(server.url);
    const run = await t.app.services.offerSync.run(sourceId);
    expect(run).toMatchObject({ status: "succeeded", seen: 12, new: 4, skipped: 8 });
    expect(run.skippedReasons).toEqual({
      "not an Offer record": 2,
      "missing id": 1,
      "missing name": 1,
      "unknown currency ZZZ": 1,
      "unsupported payout type cpm": 1,
      "invalid payout": 1,
      "status deleted": 1,
    });
    const [row] = await t.db.query(
      sql`SELECT skipped, skipped_reasons AS reasons FROM offer_sync_runs WHERE id = ${run.runId}`,
    );
    expect(row).toEqual({ skipped: 8, reasons: run.skippedReasons });
    expect(await offerOf(t.db, sourceId, 9)).toMatchObject({ name: "Fake Offer 9", status: "paused" });
  });
});
