// The Affise connector: its mapping of one record (payment types, the payment the
// directory shows, currencies, countries, categories, status, malformed input), its
// paging and error answers, and whole runs through the app's offer sync against the
// fake Affise server (auth, rate limits, skipped records, idempotency, history).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { affisePages, mapAffiseOffer } from "#core/supply/platforms/affise.ts";
import { PlatformAuthError, PlatformError } from "#core/supply/platforms/http.ts";
import { createOfferSync } from "#core/supply/sync.ts";
import { affiseOffer, startFakeAffise, type FakeAffise } from "../fakes/affise.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { addSource, API_KEY, historyOf, offerOf, SECRETS_KEY, sourceState } from "./helpers.ts";

const payment = (fields: Record<string, unknown>) => ({
  countries: ["US"],
  revenue: 10,
  currency: "usd",
  type: "fixed",
  country_exclude: false,
  ...fields,
});
const withPayments = (payments: unknown[], extra: Record<string, unknown> = {}) => ({
  ...affiseOffer(1),
  payments,
  ...extra,
});
const mapped = (raw: unknown) => {
  const result = mapAffiseOffer(raw);
  return result.ok ? result.offer : result.reason;
};

describe("mapAffiseOffer", () => {
  it("maps Affise's payment types onto the directory's, and skips the ones it cannot show", () => {
    const cases: [Record<string, unknown>, Record<string, unknown>, Record<string, unknown>][] = [
      [{ type: "fixed", revenue: 25.555 }, {}, { payoutType: "CPA", payoutAmount: 25.56, payoutPercent: null }],
      [{ type: "first_cpa", revenue: "7" }, {}, { payoutType: "CPA", payoutAmount: 7 }],
      [{ type: "fixed", revenue: 2 }, { is_cpi: true }, { payoutType: "CPI", payoutAmount: 2 }],
      [{ type: "cpc", revenue: 0.4 }, {}, { payoutType: "CPC", payoutAmount: 0.4, payoutPercent: null }],
      [{ type: "percent", revenue: 12.5 }, {}, { payoutType: "CPS", payoutAmount: null, payoutPercent: 12.5 }],
      [{ type: "first_cps", revenue: 30 }, {}, { payoutType: "CPS", payoutPercent: 30 }],
    ];
    for (const [fields, extra, expected] of cases)
      expect(mapped(withPayments([payment(fields)], extra)), JSON.stringify(fields)).toMatchObject(expected);
    for (const type of ["cpm", "mixed", "baseline_onetime"])
      expect(mapped(withPayments([payment({ type })]))).toBe(`unsupported payout type ${type}`);
    expect(mapped(withPayments([payment({ type: undefined })]))).toBe("unsupported payout type (none)");
    expect(mapped(withPayments([payment({ revenue: "lots" })]))).toBe("invalid payout");
    expect(mapped(withPayments([payment({ revenue: -4 })]))).toBe("invalid payout");
    expect(mapped(withPayments([payment({ type: "percent", revenue: 1000 })]))).toBe("invalid payout");
    expect(mapped(withPayments([]))).toBe("no payout");
  });

  it("shows the payment paying most in USD (else the highest percent), with the union of the payments' countries", () => {
    const offer = mapped(
      withPayments([
        payment({ revenue: 10, currency: "usd", countries: ["US"] }),
        payment({ revenue: 10, currency: "EUR", countries: ["de", "AT"] }), // 10.80 USD: the headline
        payment({ type: "percent", revenue: 50, countries: ["FR"] }),
        payment({ revenue: 99, currency: "XYZ", countries: ["JP"] }), // cannot be valued: not shown
        payment({ type: "cpm", revenue: 500, countries: ["IT"] }), // cannot be shown
        payment({ revenue: 3, countries: ["RU"], country_exclude: true }), // excluded countries
      ]),
    );
    expect(offer).toMatchObject({
      payoutType: "CPA",
      payoutAmount: 10,
      currency: "EUR",
      countries: ["AT", "DE", "FR", "US"],
    });
    const percents = mapped(
      withPayments([payment({ type: "percent", revenue: 5 }), payment({ type: "percent", revenue: 8 })]),
    );
    expect(percents).toMatchObject({ payoutType: "CPS", payoutPercent: 8, payoutAmount: null });
    // A CPC paying more than the CPA is the headline, whatever its place.
    expect(mapped(withPayments([payment({ revenue: 1 }), payment({ type: "cpc", revenue: 2 })]))).toMatchObject({
      payoutType: "CPC",
      payoutAmount: 2,
    });
  });

  it("reads currencies as upper-case ISO codes with a reference rate, and skips others", () => {
    expect(mapped(withPayments([payment({ currency: "gbp" })]))).toMatchObject({ currency: "GBP" });
    expect(mapped(withPayments([payment({ currency: "xyz" })]))).toBe("unknown currency xyz");
    expect(mapped(withPayments([payment({ currency: undefined })]))).toBe("unknown currency (none)");
  });

  it("takes allowed countries, category titles, the description, the landing domain, and keeps no tracking link", () => {
    const raw = {
      ...affiseOffer(6),
      payments: [payment({ countries: ["us", "US", "Narnia", 7] })],
      targeting: [
        { country: { allow: ["ca"], deny: ["CN"] } },
        { country: { allow: ["MX"], deny: [] } },
        { country: "junk" },
        "junk",
      ],
      full_categories: [{ id: "a", title: "Nutra" }, { id: "b", title: " Finance " }, { title: "Nutra" }, "x"],
      description_lang: { en: "", ru: "<p>Оффер &amp; бонус</p>" },
    };
    expect(mapped(raw)).toEqual({
      externalId: "6",
      name: "Fake Affise Offer 6",
      description: "Оффер & бонус",
      previewUrl: "https://www.shop-6.example.org/promo?src=aff",
      landingDomain: "shop-6.example.org",
      payoutType: "CPA",
      payoutAmount: 10,
      payoutPercent: null,
      currency: "USD",
      countries: ["CA", "MX", "US"],
      categories: ["Finance", "Nutra"],
      status: "active",
      allowedTraffic: ["Web sites"],
      restrictedTraffic: ["Incentive"],
    });
    expect(JSON.stringify(mapAffiseOffer(affiseOffer(6)))).not.toContain("track.fake-affise.example");
  });

  it("reads the status when present and skips offers that are stopped or past their stop date", () => {
    const now = Date.parse("2026-06-01T00:00:00Z");
    const statusOf = (extra: Record<string, unknown>) => {
      const result = mapAffiseOffer({ ...affiseOffer(1), ...extra }, now);
      return result.ok ? result.offer.status : result.reason;
    };
    expect(statusOf({})).toBe("active");
    expect(statusOf({ status: "active" })).toBe("active");
    expect(statusOf({ status: "suspended" })).toBe("paused");
    expect(statusOf({ status: "stopped" })).toBe("status stopped");
    expect(statusOf({ stop_at: "" })).toBe("active");
    expect(statusOf({ stop_at: "2026-07-01 00:00:00" })).toBe("active");
    expect(statusOf({ stop_at: "2026-05-31 23:00:00" })).toBe("stopped (stop_at passed)");
    expect(statusOf({ stop_at: "2026-05-01" })).toBe("stopped (stop_at passed)");
    expect(statusOf({ stop_at: "soon" })).toBe("active");
  });

  it("skips malformed records with a reason and never throws", () => {
    const hostile: unknown[] = [
      null,
      42,
      [],
      {},
      { id: "abc", title: "x" },
      { id: 1.5, title: "x" },
      { id: 5, title: "   " },
      { id: 5, title: "\ud800" },
      { id: 5, title: "Ok", status: "deleted" },
      { id: 5, title: "Ok" },
      { id: 5, title: "Ok", payments: "x" },
      { id: 5, title: "Ok", payments: [null, "x"] },
      { ...affiseOffer(2), preview_url: "javascript:alert(1)", full_categories: "x", targeting: { country: 1 } },
    ];
    expect(hostile.map((raw) => (mapAffiseOffer(raw).ok ? `ok ${JSON.stringify(mapped(raw))}` : mapped(raw)))).toEqual([
      "not an object",
      "not an object",
      "not an object",
      "missing id",
      "missing id",
      "missing id",
      "missing title",
      "missing title",
      "status deleted",
      "no payout",
      "no payout",
      "no payout",
      expect.stringMatching(/^ok .*"previewUrl":null,"landingDomain":null.*"categories":\[\]/),
    ]);
  });
});

/** A fetch answering the given bodies in turn (200), counting the calls. */
function scripted(bodies: unknown[]) {
  const calls: string[] = [];
  const fetch = (async (input: URL | RequestInfo) => {
    calls.push(String(input));
    const body = bodies[calls.length - 1];
    return new Response(typeof body === "string" ? body : JSON.stringify(body), { status: 200 });
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

const fast = { retryBaseMs: 1, retryMaxMs: 20 };
const drain = async (pages: AsyncIterable<unknown[]>) => {
  const sizes: number[] = [];
  for await (const page of pages) sizes.push(page.length);
  return sizes;
};

describe("affisePages", () => {
  let server: FakeAffise;
  beforeAll(async () => {
    server = await startFakeAffise({ apiKey: "key-1", count: 205 });
  });
  afterAll(() => server.close());

  it("follows pagination.next_page with the key and limit, and stops where there is none", async () => {
    const before = server.state.requests;
    expect(await drain(affisePages({ endpoint: `${server.url}/`, apiKey: "key-1", pageSize: 50, ...fast }))).toEqual([
      50, 50, 50, 50, 5,
    ]);
    expect(server.state.requests - before).toBe(5);
    server.state.count = 200; // a full last page: no next_page, no empty request after it
    const full = server.state.requests;
    expect(await drain(affisePages({ endpoint: server.url, apiKey: "key-1", pageSize: 100, ...fast }))).toEqual([
      100, 100,
    ]);
    expect(server.state.requests - full).toBe(2);
    server.state.count = 205;
  });

  it("asks 500 a page unless told, the documented maximum", async () => {
    server.state.pageSizes = [];
    expect(await drain(affisePages({ endpoint: server.url, apiKey: "key-1", ...fast }))).toEqual([205]);
    expect(server.state.pageSizes).toEqual([500]);
  });

  it("without pagination, a short page is the last; a next_page that does not move on ends the reading", async () => {
    const offers = (n: number) => Array.from({ length: n }, (_, i) => affiseOffer(i + 1));
    const bare = scripted([
      { status: 1, offers: offers(3) },
      { status: 1, offers: offers(3) },
      { status: 1, offers: offers(1) },
    ]);
    expect(
      await drain(affisePages({ endpoint: "http://affise.test", apiKey: "k", pageSize: 3, fetch: bare.fetch })),
    ).toEqual([3, 3, 1]);
    expect(bare.calls.map((u) => new URL(u).searchParams.get("page"))).toEqual(["1", "2", "3"]);
    const stuck = scripted([{ status: 1, offers: offers(2), pagination: { page: 1, next_page: 1 } }]);
    expect(await drain(affisePages({ endpoint: "http://affise.test", apiKey: "k", fetch: stuck.fetch }))).toEqual([2]);
    expect(stuck.calls).toHaveLength(1);
  });

  it("refuses a bad key (401, or a 200 with the error envelope) without retrying", async () => {
    const before = server.state.requests;
    const pages = affisePages({ endpoint: server.url, apiKey: "nope", ...fast });
    await expect(pages.next()).rejects.toBeInstanceOf(PlatformAuthError);
    expect(server.state.requests - before).toBe(1);
    server.state.refuseKeyWith200 = true;
    try {
      await expect(affisePages({ endpoint: server.url, apiKey: "nope", ...fast }).next()).rejects.toThrow(
        new PlatformAuthError(
          'Affise refused the API key ("Token is necessary"): check the source\'s affiliate API key (Affise affiliate panel → Settings → Security).',
        ),
      );
    } finally {
      server.state.refuseKeyWith200 = false;
    }
  });

  it("answers a PlatformError for any other error envelope or an answer not of the documented shape", async () => {
    const cases: [unknown, string][] = [
      [{ status: 2, message: "Something odd" }, 'Affise answered an error on page 1: "Something odd"'],
      [{ status: 2 }, 'Affise answered an error on page 1: "(no message)"'],
      [{ status: 1, items: [] }, `Affise's page 1 has no "offers" list`],
      ["<html>maintenance</html>", "Affise answered page 1 with something that is not JSON"],
    ];
    for (const [body, message] of cases) {
      const { fetch } = scripted([body]);
      const error = await affisePages({ endpoint: "http://affise.test", apiKey: "k", fetch })
        .next()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PlatformError);
      expect((error as Error).message).toBe(message);
    }
  });

  it("retries a 200 carrying the rate-limit error like a 429, honouring Retry-After up to the cap", async () => {
    server.fail("limit", 2, "1");
    const before = server.state.requests;
    const started = Date.now();
    expect(await drain(affisePages({ endpoint: server.url, apiKey: "key-1", ...fast }))).toEqual([205]);
    expect(server.state.requests - before).toBe(3);
    expect(Date.now() - started).toBeLessThan(1000); // Retry-After 1 s waited at most retryMaxMs
  });
});

describe("offer sync (Affise)", () => {
  let t: TestApp;
  const fakes: FakeAffise[] = [];
  const fake = async (count: number) => {
    const server = await startFakeAffise({ apiKey: API_KEY, count });
    fakes.push(server);
    return server;
  };
  const quiet = { info: () => {}, warn: () => {} };
  const affiseSource = (url: string, extra: { apiKey?: string; settings?: Record<string, unknown> } = {}) =>
    addSource(t.db, t.app.services.secrets, { url, platform: "affise", settings: { page_size: 100 }, ...extra });

  beforeAll(async () => {
    t = await createTestApp({ seed: { networks: 1, offers: 5, trafficSources: 1 }, env: { SECRETS_KEY } });
  });
  afterAll(async () => {
    await Promise.all(fakes.map((f) => f.close()));
    await t?.close();
  });

  it("pages through the catalogue with the source's page size, and a second run writes nothing", async () => {
    const server = await fake(730);
    const { sourceId } = await affiseSource(server.url, { settings: { page_size: 200 } });
    const sync = t.app.services.offerSync;
    const first = await sync.run(sourceId);
    expect(first).toMatchObject({ status: "succeeded", seen: 730, new: 730, changed: 0, unchanged: 0, skipped: 0 });
    expect(server.state.pageSizes).toEqual([200, 200, 200, 200]);
    expect(await sourceState(t.db, sourceId)).toEqual({ state: "ok", lastError: null });

    const second = await sync.run(sourceId);
    expect(second).toMatchObject({ status: "succeeded", seen: 730, new: 0, changed: 0, unchanged: 730, retired: 0 });
    const [{ n, history }] = await t.db.query<{ n: number; history: number }>(sql`
      SELECT count(*)::int AS n,
        (SELECT count(*)::int FROM offer_history h JOIN offers o ON o.id = h.offer_id WHERE o.source_id = ${sourceId}) AS history
      FROM offers WHERE source_id = ${sourceId}`);
    expect({ n, history }).toEqual({ n: 730, history: 730 });

    // No page size, or one out of bounds: Affise's maximum, 500.
    for (const settings of [{}, { page_size: 5000 }]) {
      const other = await affiseSource(server.url, { settings });
      server.state.pageSizes = [];
      expect(await sync.run(other.sourceId)).toMatchObject({ status: "succeeded", new: 730 });
      expect(server.state.pageSizes).toEqual([500, 500]);
    }
  });

  it("a refused key fails the run and marks the source failing with a message for the operator", async () => {
    const server = await fake(5);
    const { sourceId } = await affiseSource(server.url, { apiKey: "wrong-key" });
    const run = await t.app.services.offerSync.run(sourceId);
    expect(run.status).toBe("failed");
    expect(run.error).toBe(
      "Affise refused the API key (401): check the source's affiliate API key (Affise affiliate panel → Settings → Security).",
    );
    expect(await sourceState(t.db, sourceId)).toEqual({ state: "failing", lastError: run.error });

    server.state.refuseKeyWith200 = true;
    const inBody = await t.app.services.offerSync.run(sourceId);
    expect(inBody).toMatchObject({ status: "failed" });
    expect(inBody.error).toMatch(/^Affise refused the API key \("Token is necessary"\): check the source's/);
    expect(await sourceState(t.db, sourceId)).toEqual({ state: "failing", lastError: inBody.error });

    server.state.apiKey = "wrong-key";
    expect(await t.app.services.offerSync.run(sourceId)).toMatchObject({ status: "succeeded", new: 5 });
    expect(await sourceState(t.db, sourceId)).toEqual({ state: "ok", lastError: null });
  });

  it("backs off on 429 and on the in-body rate limit, and gives up with a message when they last", async () => {
    const server = await fake(250);
    const { sourceId } = await affiseSource(server.url);
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

    server.fail("limit", 3);
    const requests = server.state.requests;
    expect(await sync.run(sourceId)).toMatchObject({ status: "succeeded", unchanged: 250 });
    expect(server.state.requests - requests).toBe(3 + 3);

    server.fail("limit", 4);
    const failed = await sync.run(sourceId);
    expect(failed.status).toBe("failed");
    expect(failed.error).toBe("Affise answered 429 on page 1; gave up after 4 attempts");
    expect(await sourceState(t.db, sourceId)).toMatchObject({ lastError: failed.error });

    server.fail(500, 4);
    expect(await sync.run(sourceId)).toMatchObject({
      status: "failed",
      error: "Affise answered 500 on page 1; gave up after 4 attempts",
    });
  });

  it("skips malformed records, counts them by reason, and writes the rest", async () => {
    const server = await fake(12);
    server.state.overrides.set(1, null);
    server.state.overrides.set(2, { title: "No id" });
    server.state.overrides.set(3, { id: 3, title: "Bad\u0000title" });
    server.state.overrides.set(4, { ...affiseOffer(4), payments: [payment({ currency: "ZZZ" })] });
    server.state.overrides.set(5, { ...affiseOffer(5), payments: [payment({ type: "cpm", revenue: 2 })] });
    server.state.overrides.set(6, { ...affiseOffer(6), payments: [payment({ revenue: -4 })] });
    server.state.overrides.set(7, { ...affiseOffer(7), status: "stopped" });
    const { sourceId } = await affiseSource(server.url);
    const run = await t.app.services.offerSync.run(sourceId);
    expect(run).toMatchObject({ status: "succeeded", seen: 12, new: 5, skipped: 7 });
    expect(run.skippedReasons).toEqual({
      "not an object": 1,
      "missing id": 1,
      "missing title": 1,
      "unknown currency ZZZ": 1,
      "unsupported payout type cpm": 1,
      "invalid payout": 1,
      "status stopped": 1,
    });
    const [row] = await t.db.query(
      sql`SELECT skipped, skipped_reasons AS reasons FROM offer_sync_runs WHERE id = ${run.runId}`,
    );
    expect(row).toEqual({ skipped: 7, reasons: run.skippedReasons });
    expect(await offerOf(t.db, sourceId, 8)).toMatchObject({ name: "Fake Affise Offer 8" });
  });

  it("maps fields into offers and queues Affise's categories for mapping", async () => {
    const server = await fake(8);
    const { sourceId } = await affiseSource(server.url);
    await t.app.services.offerSync.run(sourceId);

    // Offer 4: fixed in EUR (n % 5 = 4), "Finance"; its two payments pay in FR, AU and BR (CN denied).
    expect(await offerOf(t.db, sourceId, 4)).toMatchObject({
      name: "Fake Affise Offer 4",
      description: "Offer 4 & more",
      payoutType: "CPA",
      payoutAmount: 14,
      payoutPercent: null,
      payoutUsd: 15.12,
      currency: "EUR",
      countries: ["AU", "BR", "FR"],
      categoryIds: [],
      landingDomain: "shop-4.example.org",
      previewUrl: "https://www.shop-4.example.org/promo?src=aff",
      status: "active",
    });
    expect(await offerOf(t.db, sourceId, 1)).toMatchObject({
      payoutType: "CPS",
      payoutAmount: null,
      payoutPercent: 6,
      payoutUsd: null,
      currency: "USD",
      countries: ["CA", "GB"],
    });
    // Offer 2: its cpc payment (12) outranks its second, fixed one (1).
    expect(await offerOf(t.db, sourceId, 2)).toMatchObject({
      payoutType: "CPC",
      payoutAmount: 12,
      payoutUsd: 12,
      countries: ["DE", "FR", "GB"],
    });
    expect(await offerOf(t.db, sourceId, 3)).toMatchObject({ payoutType: "CPI", payoutAmount: 13 });
    // `sources`: allowed (1) and forbidden (0) traffic land in the offer's traffic lists.
    const [traffic] = await t.db.query<{ allowed: string[]; restricted: string[] }>(sql`
      SELECT allowed_traffic AS allowed, restricted_traffic AS restricted FROM offers
      WHERE source_id = ${sourceId} AND external_id = '4'`);
    expect(traffic).toEqual({ allowed: ["Web sites"], restricted: ["Incentive"] });

    const queued = await t.db.query<{ name: string; categoryId: number | null }>(sql`
      SELECT name, category_id AS "categoryId" FROM platform_categories WHERE platform = 'affise' ORDER BY name`);
    expect(queued).toEqual(["Dating", "Finance", "Gaming", "Sweepstakes"].map((name) => ({ name, categoryId: null })));
    const tracking = await t.db.query(sql`
      SELECT 1 FROM offers WHERE source_id = ${sourceId}
        AND (description LIKE '%track.fake-affise%' OR preview_url LIKE '%track.fake-affise%')`);
    expect(tracking).toEqual([]);
  });

  it("a payout change writes the offer as changed with one more history row", async () => {
    const server = await fake(30);
    const { sourceId } = await affiseSource(server.url);
    const sync = t.app.services.offerSync;
    await sync.run(sourceId);
    const before = await offerOf(t.db, sourceId, 8); // fixed (CPA): the version moves its revenue
    server.state.versions.set(8, 5);

    expect(await sync.run(sourceId)).toMatchObject({
      status: "succeeded",
      seen: 30,
      new: 0,
      changed: 1,
      unchanged: 29,
    });
    const after = await offerOf(t.db, sourceId, 8);
    expect(after.id).toBe(before.id);
    expect(after.payoutAmount).toBe(before.payoutAmount! + 5);
    expect((await historyOf(t.db, after.id)).map((h) => h.payoutAmount)).toEqual([
      before.payoutAmount,
      before.payoutAmount! + 5,
    ]);
    expect(await sync.run(sourceId)).toMatchObject({ status: "succeeded", new: 0, changed: 0, unchanged: 30 });
  });
});
