// The CAKE connector: its reading of formatted payouts and its mapping of one
// offer (price formats, currencies, countries, verticals, statuses, malformed
// input); its paging, auth and rate-limit answers against the fake server; and
// the sync through the app's services (counts, idempotency, history, faults),
// with the rule that a CAKE source names its affiliate_id when it is added.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { usdValue } from "#core/reference/currencies.ts";
import { createOfferSync } from "#core/supply/sync.ts";
import {
  CAKE_NEEDS_AFFILIATE_ID,
  cakePages,
  cakePayoutOf,
  mapCakeOffer,
  type CakeOptions,
} from "#core/supply/platforms/cake.ts";
import { PlatformAuthError, PlatformError } from "#core/supply/platforms/http.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";
import { CAKE_FEED_PATH, cakeOffer, startFakeCake, type FakeCake } from "../fakes/cake.ts";
import { addSource, API_KEY, historyOf, offerOf, SECRETS_KEY, sourceState } from "./helpers.ts";

const AFFILIATE_ID = "7";
const fast = { retryBaseMs: 1, retryMaxMs: 20 };

describe("cakePayoutOf", () => {
  it("reads amounts with their currency sign or code, and percents", () => {
    const cases: [unknown, unknown][] = [
      ["$12.50", { kind: "amount", amount: 12.5, currency: "USD", currencyText: "$" }],
      ["€3.00", { kind: "amount", amount: 3, currency: "EUR", currencyText: "€" }],
      ["£1,250.00", { kind: "amount", amount: 1250, currency: "GBP", currencyText: "£" }],
      ["US$ 4.125", { kind: "amount", amount: 4.13, currency: "USD", currencyText: "US$" }],
      ["12.50 usd", { kind: "amount", amount: 12.5, currency: "USD", currencyText: "usd" }],
      ["CAD 4", { kind: "amount", amount: 4, currency: "CAD", currencyText: "CAD" }],
      ["3,50 €", { kind: "amount", amount: 3.5, currency: "EUR", currencyText: "€" }],
      ["€1.250,75", { kind: "amount", amount: 1250.75, currency: "EUR", currencyText: "€" }],
      ["¥500", { kind: "amount", amount: 500, currency: undefined, currencyText: "¥" }],
      ["7", { kind: "amount", amount: 7, currency: undefined, currencyText: "" }],
      ["15%", { kind: "percent", percent: 15 }],
      [" 2.5 % ", { kind: "percent", percent: 2.5 }],
    ];
    for (const [text, expected] of cases) expect(cakePayoutOf(text), String(text)).toEqual(expected);
  });

  it("refuses what is not one readable payout", () => {
    const unreadable = [
      "",
      "free",
      "$",
      "$12 USD",
      "-$5",
      "$-5",
      "12.5.5",
      "1,2,3",
      "15%%",
      "%15",
      "$15%",
      "$1e5",
      "$99999999999.00",
      "1000%",
      null,
      undefined,
      {},
    ];
    for (const text of unreadable) expect(cakePayoutOf(text), String(text)).toBeUndefined();
  });
});

describe("mapCakeOffer", () => {
  const withPayout = (price_format: string | undefined, payout: string) => ({ ...cakeOffer(4), price_format, payout });

  it("maps CAKE's price formats onto the directory's payout types", () => {
    const cases: [string | undefined, string, Record<string, unknown>][] = [
      ["CPA", "$25.555", { payoutType: "CPA", payoutAmount: 25.56, payoutPercent: null, currency: "USD" }],
      ["CPC", "$0.40", { payoutType: "CPC", payoutAmount: 0.4, payoutPercent: null }],
      ["RevShare", "25%", { payoutType: "revshare", payoutAmount: null, payoutPercent: 25, currency: "USD" }],
      ["Rev Share", "12.5%", { payoutType: "revshare", payoutPercent: 12.5 }],
      [undefined, "€8.00", { payoutType: "CPA", payoutAmount: 8, currency: "EUR" }],
      [undefined, "10%", { payoutType: "revshare", payoutPercent: 10 }],
    ];
    for (const [format, payout, expected] of cases) {
      const mapped = mapCakeOffer(withPayout(format, payout));
      expect(mapped.ok && mapped.offer, `${format} ${payout}`).toMatchObject(expected);
    }
    const reasons = [
      withPayout("CPM", "$2.00"),
      withPayout("Fixed", "$1000.00"),
      withPayout("CPA", "15%"),
      withPayout("RevShare", "$3.00"),
      withPayout("CPA", "lots"),
      withPayout("CPA", "¥500"),
      withPayout("CPA", "ZZZ 5"),
      withPayout("CPA", "5"),
      { ...cakeOffer(4), payout: undefined },
    ].map((raw) => {
      const mapped = mapCakeOffer(raw);
      return mapped.ok ? "ok" : mapped.reason;
    });
    expect(reasons).toEqual([
      "unsupported payout type CPM",
      "unsupported payout type Fixed",
      "invalid payout",
      "invalid payout",
      "unreadable payout lots",
      "unknown currency ¥",
      "unknown currency ZZZ",
      "unknown currency (none)",
      "unreadable payout (none)",
    ]);
  });

  it("takes the allowed countries, the vertical, the landing domain, and never the tracking link", () => {
    const raw = {
      ...cakeOffer(9),
      allowed_countries: {
        country: [
          { country_code: "us", country_name: "United States" },
          { country_code: "DE" },
          { country_code: "US" },
          { country_code: "Narnia" },
          "junk",
        ],
      },
      blocked_countries: { country: [{ country_code: "RU" }] },
    };
    const mapped = mapCakeOffer(raw);
    expect(mapped.ok && mapped.offer).toEqual({
      externalId: "9",
      name: "Fake CAKE Offer 9",
      description: "Offer 9 & friends",
      previewUrl: "https://www.brand-9.example.net/landing?src=cake",
      landingDomain: "brand-9.example.net",
      payoutType: "revshare",
      payoutAmount: null,
      payoutPercent: 14,
      currency: "USD",
      countries: ["DE", "US"],
      categories: ["Health & Beauty"],
      status: "paused",
    });
    expect(JSON.stringify(mapped)).not.toContain("track.example.net");
    // Countries as a plain list, and an offer open everywhere (no list).
    const listed = mapCakeOffer({ ...cakeOffer(4), allowed_countries: "fr, BE;xx" });
    expect(listed.ok && listed.offer.countries).toEqual(["BE", "FR", "XX"]);
    const open = mapCakeOffer({ ...cakeOffer(4), allowed_countries: "" });
    expect(open.ok && open.offer.countries).toEqual([]);
  });

  it("lists live statuses as active, stopped ones as paused, and skips pending and expired offers", () => {
    const statusOf = (offer_status: unknown) => {
      const mapped = mapCakeOffer({ ...cakeOffer(4), offer_status });
      return mapped.ok ? mapped.offer.status : mapped.reason;
    };
    expect(
      ["Active", "public", "Private", "Apply To Run", "Paused", "Inactive", "Pending", "Expired", "Deleted", ""].map(
        statusOf,
      ),
    ).toEqual([
      "active",
      "active",
      "active",
      "active",
      "paused",
      "paused",
      "offer_status Pending",
      "offer_status Expired",
      "offer_status Deleted",
      "offer_status missing",
    ]);
    expect(statusOf({ status_id: "1", status_name: "Active" })).toBe("active");
  });

  it("skips malformed records with a reason and never throws", () => {
    const hostile: unknown[] = [
      "",
      null,
      42,
      [],
      {},
      { offer_id: "abc", offer_name: "x" },
      { offer_id: "1.5", offer_name: "x" },
      { offer_id: "0", offer_name: "x" },
      { offer_id: "1e3", offer_name: "x" },
      { offer_id: "5", offer_name: "   " },
      { offer_id: "5", offer_name: "\ud800" },
      { offer_id: "5", offer_name: { nested: "x" } },
      { offer_id: "5", offer_name: "Ok", offer_status: ["Active"] },
      { offer_id: "5", offer_name: "Ok", offer_status: "Active" },
      { ...cakeOffer(2), preview_link: "javascript:alert(1)" },
    ];
    const reasons = hostile.map((raw) => {
      const mapped = mapCakeOffer(raw);
      return mapped.ok ? `ok ${mapped.offer.previewUrl}` : mapped.reason;
    });
    expect(reasons).toEqual([
      "not an object",
      "not an object",
      "not an object",
      "not an object",
      "missing offer_id",
      "missing offer_id",
      "missing offer_id",
      "missing offer_id",
      "missing offer_id",
      "missing offer_name",
      "missing offer_name",
      "missing offer_name",
      "offer_status missing",
      "unreadable payout (none)",
      "ok null",
    ]);
  });
});

describe("cakePages", () => {
  let server: FakeCake;
  beforeAll(async () => {
    server = await startFakeCake({ apiKey: "key-1", affiliateId: AFFILIATE_ID, count: 205 });
  });
  afterAll(() => server.close());
  const options = (extra: Partial<CakeOptions> = {}): CakeOptions => ({
    endpoint: server.url,
    apiKey: "key-1",
    affiliateId: AFFILIATE_ID,
    ...fast,
    ...extra,
  });
  const sizes = async (pages: AsyncIterable<unknown[]>) => {
    const seen: number[] = [];
    for await (const page of pages) seen.push(page.length);
    return seen;
  };

  it("asks row after row with the key, the affiliate and row_limit, and stops at a short page", async () => {
    server.state.pageSizes.length = 0;
    expect(await sizes(cakePages(options({ endpoint: `${server.url}/`, pageSize: 50 })))).toEqual([50, 50, 50, 50, 5]);
    expect(server.state.pageSizes).toEqual([50, 50, 50, 50, 50]);
    // The first rows are offers 1.., then 51..: start_at_row is 1-based.
    const first = (await cakePages(options({ pageSize: 50 })).next()).value as { offer_id: string }[];
    expect([first[0].offer_id, first[49].offer_id]).toEqual(["1", "50"]);

    // A full last page: one more request finds the end (row_count is not trusted as the total).
    server.state.count = 200;
    const before = server.state.requests;
    expect(await sizes(cakePages(options({ pageSize: 100 })))).toEqual([100, 100]);
    expect(server.state.requests - before).toBe(3);
    server.state.count = 205;

    // The full OfferFeed address pasted as the endpoint is used as it is.
    expect(await sizes(cakePages(options({ endpoint: `${server.url}${CAKE_FEED_PATH}`, pageSize: 500 })))).toEqual([
      205,
    ]);
  });

  it("turns CAKE's refusals of the key or the affiliate into auth errors for the operator, without retrying", async () => {
    const before = server.state.requests;
    await expect(cakePages(options({ apiKey: "nope" })).next()).rejects.toBeInstanceOf(PlatformAuthError);
    await expect(cakePages(options({ apiKey: "nope" })).next()).rejects.toThrow(
      `CAKE refused the API key or affiliate_id ("Invalid API Key"): check the source's API key and its affiliate_id setting`,
    );
    await expect(cakePages(options({ affiliateId: "8" })).next()).rejects.toThrow(/\("Invalid Affiliate ID"\)/);
    expect(server.state.requests - before).toBe(3);
    // No affiliate id: refused before any request.
    const error = await cakePages(options({ affiliateId: undefined }))
      .next()
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(PlatformAuthError);
    expect((error as Error).message).toContain(CAKE_NEEDS_AFFILIATE_ID);
    expect(server.state.requests - before).toBe(3);
  });

  it("waits out CAKE's in-body rate limit, and gives up after the attempts with a message", async () => {
    server.fail("restricted", 2);
    expect(await sizes(cakePages(options({ pageSize: 500 })))).toEqual([205]);
    server.fail("restricted", 3);
    await expect(cakePages(options({ attempts: 3 })).next()).rejects.toThrow(
      'CAKE kept answering "Restricted" (its rate limit) on page 1; gave up after 3 attempts',
    );
    expect(server.state.faults).toEqual([]);
  });

  it("refuses answers that are not CAKE's documented shape, and XML with a DOCTYPE", async () => {
    const answering =
      (body: string): typeof fetch =>
      () =>
        Promise.resolve(new Response(body, { status: 200 }));
    const xml = (inner: string) => `<?xml version="1.0"?><offer_feed_response>${inner}</offer_feed_response>`;
    const cases: [string, string | RegExp][] = [
      ['{"offers":[]}', "CAKE answered page 1 with something that is not an API answer (no <…_response><success>)"],
      ["<html><body>Login</body></html>", /not an API answer/],
      ["", /not an API answer/],
      [xml("<success>true</success><row_count>3</row_count>"), "CAKE's page 1 has no <offers> list"],
      [xml("<success>true</success><offers>text</offers>"), "CAKE's page 1 has no <offers> list"],
      [xml("<success>false</success><message>Database timeout</message>"), "CAKE refused page 1: Database timeout"],
      [
        `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>${xml("<success>&b;</success>")}`,
        "CAKE answered page 1 with a DOCTYPE, which its API never sends",
      ],
      [`<offer_feed_response>${"<a>".repeat(40)}`, /XML that cannot be read/],
    ];
    for (const [body, message] of cases) {
      const error = await cakePages(options({ fetch: answering(body) }))
        .next()
        .catch((err: unknown) => err);
      expect(error, body).toBeInstanceOf(PlatformError);
      if (typeof message === "string") expect((error as Error).message, body).toBe(message);
      else expect((error as Error).message, body).toMatch(message);
    }
    // An empty feed is no error.
    for (const body of [
      xml("<success>true</success><row_count>0</row_count><offers/>"),
      xml("<success>true</success><row_count>0</row_count>"),
    ])
      expect(await sizes(cakePages(options({ fetch: answering(body) })))).toEqual([]);
  });
});

describe("offer sync (CAKE)", () => {
  let t: TestApp;
  const fakes: FakeCake[] = [];
  const fake = async (count: number) => {
    const server = await startFakeCake({ apiKey: API_KEY, affiliateId: AFFILIATE_ID, count });
    fakes.push(server);
    return server;
  };
  const cakeSource = (url: string, extra: { apiKey?: string; settings?: Record<string, unknown> } = {}) =>
    addSource(t.db, t.app.services.secrets, {
      url,
      platform: "cake",
      apiKey: extra.apiKey,
      settings: extra.settings ?? { affiliate_id: AFFILIATE_ID, page_size: 100 },
    });
  const quiet = { info: () => {}, warn: () => {} };
  const patientSync = () =>
    createOfferSync(t.db, {
      secrets: t.app.services.secrets,
      onCatalogueChanged: () => {},
      log: quiet,
      http: { retryBaseMs: 5, retryMaxMs: 100 },
    });

  beforeAll(async () => {
    t = await createTestApp({ seed: { networks: 2, offers: 10, trafficSources: 1 }, env: { SECRETS_KEY } });
  });
  afterAll(async () => {
    await Promise.all(fakes.map((f) => f.close()));
    await t?.close();
  });

  it("pages through 1,234 offers with the source's page_size, and a second run writes nothing", async () => {
    const server = await fake(1234);
    const { sourceId } = await cakeSource(server.url, { settings: { affiliate_id: 7, page_size: 250 } });
    const sync = t.app.services.offerSync;
    const first = await sync.run(sourceId);
    expect(first).toMatchObject({ status: "succeeded", seen: 1234, new: 1234, changed: 0, unchanged: 0, skipped: 0 });
    expect(server.state.pageSizes).toEqual(Array(5).fill(250));
    const [written] = await t.db.query<{ n: number; history: number }>(sql`
      SELECT count(*)::int AS n,
        (SELECT count(*)::int FROM offer_history h JOIN offers o ON o.id = h.offer_id WHERE o.source_id = ${sourceId}) AS history
      FROM offers WHERE source_id = ${sourceId}`);
    expect(written).toEqual({ n: 1234, history: 1234 });
    expect(await sourceState(t.db, sourceId)).toEqual({ state: "ok", lastError: null });

    const second = await sync.run(sourceId);
    expect(second).toMatchObject({ status: "succeeded", seen: 1234, new: 0, changed: 0, unchanged: 1234, retired: 0 });
    const [again] = await t.db.query<{ history: number }>(sql`
      SELECT count(*)::int AS history FROM offer_history h JOIN offers o ON o.id = h.offer_id WHERE o.source_id = ${sourceId}`);
    expect(again.history).toBe(1234);
  });

  it("maps payouts, currencies (with their USD value), countries and statuses; verticals wait unmapped", async () => {
    const server = await fake(10);
    const { sourceId } = await cakeSource(server.url);
    expect(await t.app.services.offerSync.run(sourceId)).toMatchObject({ status: "succeeded", new: 10, skipped: 0 });

    expect(await offerOf(t.db, sourceId, 4)).toMatchObject({
      name: "Fake CAKE Offer 4",
      description: "Offer 4 & friends",
      payoutType: "CPA",
      payoutAmount: 14.5,
      payoutPercent: null,
      payoutUsd: 14.5,
      currency: "USD",
      countries: ["AU", "FR"],
      categoryIds: [],
      landingDomain: "brand-4.example.net",
      previewUrl: "https://www.brand-4.example.net/landing?src=cake",
      status: "active",
    });
    expect(await offerOf(t.db, sourceId, 3)).toMatchObject({
      payoutType: "CPA",
      payoutAmount: 13.5,
      currency: "EUR",
      payoutUsd: usdValue(13.5, "EUR"),
    });
    expect(await offerOf(t.db, sourceId, 7)).toMatchObject({ payoutAmount: 1017.5, currency: "EUR" }); // "€1,017.50"
    expect(await offerOf(t.db, sourceId, 1)).toMatchObject({
      payoutType: "revshare",
      payoutAmount: null,
      payoutPercent: 6,
      payoutUsd: null,
    });
    expect(await offerOf(t.db, sourceId, 2)).toMatchObject({ payoutType: "CPC", payoutAmount: 1.2, currency: "USD" });
    expect(await offerOf(t.db, sourceId, 9)).toMatchObject({ status: "paused" });

    const queued = await t.db.query<{ name: string; categoryId: number | null }>(sql`
      SELECT name, category_id AS "categoryId" FROM platform_categories WHERE platform = 'cake' ORDER BY name`);
    expect(queued).toEqual(
      ["Finance", "Gaming", "Health & Beauty", "Sweepstakes"].map((name) => ({ name, categoryId: null })),
    );
    const tracking = await t.db.query(sql`
      SELECT 1 FROM offers WHERE source_id = ${sourceId}
        AND (description LIKE '%secret%' OR preview_url LIKE '%track.example.net%')`);
    expect(tracking).toEqual([]);

    // An operator maps "Finance" to a vertical: offers 4 and 8 change on the next run.
    const [vertical] = await t.db.query<{ id: number }>(sql`SELECT id FROM categories ORDER BY id LIMIT 1`);
    await t.db.query(
      sql`UPDATE platform_categories SET category_id = ${vertical.id} WHERE platform = 'cake' AND name = 'Finance'`,
    );
    expect(await t.app.services.offerSync.run(sourceId)).toMatchObject({ changed: 2, unchanged: 8 });
    expect((await offerOf(t.db, sourceId, 4)).categoryIds).toEqual([vertical.id]);
  });

  it("a payout change writes the offer and exactly one history row", async () => {
    const server = await fake(30);
    const { sourceId } = await cakeSource(server.url);
    const sync = t.app.services.offerSync;
    await sync.run(sourceId);
    const before = await offerOf(t.db, sourceId, 4);
    server.state.versions.set(4, 7);

    expect(await sync.run(sourceId)).toMatchObject({
      status: "succeeded",
      seen: 30,
      new: 0,
      changed: 1,
      unchanged: 29,
    });
    const after = await offerOf(t.db, sourceId, 4);
    expect(after.id).toBe(before.id);
    expect(after.payoutAmount).toBe(before.payoutAmount! + 7);
    expect((await historyOf(t.db, after.id)).map((h) => h.payoutAmount)).toEqual([
      before.payoutAmount,
      before.payoutAmount! + 7,
    ]);
  });

  it("a refused key fails the run and marks the source failing with a message for the operator", async () => {
    const server = await fake(5);
    const { sourceId } = await cakeSource(server.url, { apiKey: "wrong-key" });
    const run = await t.app.services.offerSync.run(sourceId);
    expect(run.status).toBe("failed");
    expect(run.error).toBe(
      `CAKE refused the API key or affiliate_id ("Invalid API Key"): check the source's API key and its affiliate_id setting (the affiliate's API key and ID in the network's CAKE portal).`,
    );
    expect(await sourceState(t.db, sourceId)).toEqual({ state: "failing", lastError: run.error });
    expect(run.error).not.toContain("wrong-key");

    server.state.apiKey = "wrong-key";
    expect(await t.app.services.offerSync.run(sourceId)).toMatchObject({ status: "succeeded", new: 5 });
    expect(await sourceState(t.db, sourceId)).toEqual({ state: "ok", lastError: null });
  });

  it("a source without affiliate_id fails as the operator's to fix", async () => {
    const server = await fake(5);
    const { sourceId } = await cakeSource(server.url, { settings: { page_size: 100 } });
    const run = await t.app.services.offerSync.run(sourceId);
    expect(run).toMatchObject({
      status: "failed",
      error: `The source has no affiliate_id setting: ${CAKE_NEEDS_AFFILIATE_ID}`,
    });
    expect(await sourceState(t.db, sourceId)).toMatchObject({ state: "failing" });
    expect(server.state.requests).toBe(0);
  });

  it('backs off on 429, 5xx and CAKE\'s "Restricted", and gives up with a message after four attempts', async () => {
    const server = await fake(250);
    const { sourceId } = await cakeSource(server.url);
    const sync = patientSync();

    server.fail(429, 1, "120");
    const started = Date.now();
    expect(await sync.run(sourceId)).toMatchObject({ status: "succeeded", seen: 250, new: 250 });
    expect(Date.now() - started).toBeLessThan(5000); // Retry-After 120 s waited at most the cap

    server.fail("restricted", 3);
    let requests = server.state.requests;
    expect(await sync.run(sourceId)).toMatchObject({ status: "succeeded", unchanged: 250 });
    expect(server.state.requests - requests).toBe(3 + 3);

    server.fail("restricted", 4);
    const limited = await sync.run(sourceId);
    expect(limited).toMatchObject({
      status: "failed",
      error: 'CAKE kept answering "Restricted" (its rate limit) on page 1; gave up after 4 attempts',
    });
    expect(await sourceState(t.db, sourceId)).toEqual({ state: "ok", lastError: limited.error });

    server.fail(500, 4);
    requests = server.state.requests;
    const failed = await sync.run(sourceId);
    expect(failed).toMatchObject({ status: "failed", error: "CAKE answered 500 on page 1; gave up after 4 attempts" });
    expect(server.state.requests - requests).toBe(4);
    // Failed runs are no misses: every offer is still listed.
    expect(await sync.run(sourceId)).toMatchObject({ status: "succeeded", unchanged: 250, retired: 0 });
  });

  it("skips malformed records, counts them by reason, and keeps the rest", async () => {
    const server = await fake(12);
    server.state.overrides.set(1, "<offer/>");
    server.state.overrides.set(2, "<offer>just text</offer>");
    server.state.overrides.set(3, { ...cakeOffer(3), offer_id: "" });
    server.state.overrides.set(4, { ...cakeOffer(4), offer_status: "Expired" });
    server.state.overrides.set(5, { ...cakeOffer(5), price_format: "CPM", payout: "$2.00" });
    server.state.overrides.set(6, { ...cakeOffer(6), payout: "call us" });
    server.state.overrides.set(7, { ...cakeOffer(7), payout: "¥900" });
    const { sourceId } = await cakeSource(server.url);
    const run = await t.app.services.offerSync.run(sourceId);
    expect(run).toMatchObject({ status: "succeeded", seen: 12, new: 5, skipped: 7 });
    expect(run.skippedReasons).toEqual({
      "not an object": 2,
      "missing offer_id": 1,
      "offer_status Expired": 1,
      "unsupported payout type CPM": 1,
      "unreadable payout call us": 1,
      "unknown currency ¥": 1,
    });
    const [row] = await t.db.query(
      sql`SELECT skipped, skipped_reasons AS reasons FROM offer_sync_runs WHERE id = ${run.runId}`,
    );
    expect(row).toEqual({ skipped: 7, reasons: run.skippedReasons });
    expect(await offerOf(t.db, sourceId, 8)).toMatchObject({ name: "Fake CAKE Offer 8" });
  });

  it("refuses to add a CAKE source without its affiliate_id", async () => {
    const admin = await signInWithRoles(t, ["admin"]);
    const [{ id: networkId }] = await t.db.query<{ id: number }>(sql`SELECT id FROM networks ORDER BY id LIMIT 1`);
    const add = (settings?: unknown) =>
      t.app.inject({
        method: "POST",
        url: "/api/admin/sources",
        headers: admin.headers,
        payload: {
          networkId,
          platform: "cake",
          endpoint: "https://partners.example.com",
          apiKey: "cake-key-1",
          settings,
        },
      });
    for (const settings of [
      undefined,
      {},
      { affiliate_id: "" },
      { affiliate_id: "abc" },
      { affiliate_id: -3 },
      { affiliate_id: 1.5 },
    ]) {
      const res = await add(settings);
      expect(res.statusCode, JSON.stringify(settings)).toBe(400);
      expect(res.json<{ message: string }>().message).toContain(CAKE_NEEDS_AFFILIATE_ID);
    }
    const [{ n }] = await t.db.query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM offer_sources WHERE endpoint = 'https://partners.example.com/'`,
    );
    expect(n).toBe(0);
    for (const settings of [{ affiliate_id: 42 }, { affiliate_id: " 42 ", page_size: 200 }]) {
      const res = await add(settings);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.body).not.toContain("cake-key-1");
    }
  });
});
