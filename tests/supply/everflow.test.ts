// The Everflow connector: its mapping of one record (payout types, currencies,
// countries, categories, status, malformed input) and its paging, auth and
// backoff against the fake server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { everflowPages, mapEverflowOffer } from "#core/supply/platforms/everflow.ts";
import { PlatformAuthError } from "#core/supply/platforms/http.ts";
import { everflowOffer, startFakeEverflow, type FakeEverflow } from "../fakes/everflow.ts";

const withPayout = (entry: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
  const raw = everflowOffer(1) as { relationship: Record<string, unknown> };
  return { ...raw, relationship: { ...raw.relationship, payouts: { total: 1, entries: [entry] } }, ...extra };
};

describe("mapEverflowOffer", () => {
  it("maps Everflow's payout types onto the directory's", () => {
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [
        { payout_type: "cpa", payout_amount: 25.555 },
        { payoutType: "CPA", payoutAmount: 25.56, payoutPercent: null },
      ],
      [
        { payout_type: "cpc", payout_amount: "0.4" },
        { payoutType: "CPC", payoutAmount: 0.4, payoutPercent: null },
      ],
      [
        { payout_type: "cps", payout_percentage: 12.5 },
        { payoutType: "CPS", payoutAmount: null, payoutPercent: 12.5 },
      ],
      [
        { payout_type: "cpa_cps", payout_amount: 30, payout_percentage: 10 },
        { payoutType: "revshare", payoutAmount: 30, payoutPercent: 10 },
      ],
      [
        { payout_type: "cpa_sku", payout_amount: 8 },
        { payoutType: "CPA", payoutAmount: 8 },
      ],
    ];
    for (const [entry, expected] of cases) {
      const mapped = mapEverflowOffer(withPayout(entry));
      expect(mapped.ok && mapped.offer, JSON.stringify(entry)).toMatchObject(expected);
    }
    expect(mapEverflowOffer(withPayout({ payout_type: "cpm", payout_amount: 3 }))).toEqual({
      ok: false,
      reason: "unsupported payout type cpm",
    });
    expect(mapEverflowOffer(withPayout({ payout_type: "prv" }))).toEqual({
      ok: false,
      reason: "unsupported payout type prv",
    });
    expect(mapEverflowOffer(withPayout({ payout_type: "cpa", payout_amount: "lots" }))).toEqual({
      ok: false,
      reason: "invalid payout",
    });
  });

  it("takes the default payout entry when there are several, else the first", () => {
    const entries = (list: Record<string, unknown>[]) => {
      const raw = everflowOffer(1) as { relationship: Record<string, unknown> };
      raw.relationship.payouts = { total: list.length, entries: list };
      const mapped = mapEverflowOffer(raw);
      return mapped.ok ? [mapped.offer.payoutType, mapped.offer.payoutAmount] : mapped.reason;
    };
    const bonus = { payout_type: "cpa", payout_amount: 50 };
    const base = { payout_type: "cpc", payout_amount: 0.5, is_default: true };
    expect(entries([bonus, base])).toEqual(["CPC", 0.5]);
    expect(entries([bonus, { ...base, is_default: false }])).toEqual(["CPA", 50]);
    expect(entries([])).toBe("no payout");
  });

  it("reads currencies as upper-case ISO codes with a reference rate, and skips others", () => {
    const lower = mapEverflowOffer({ ...everflowOffer(1), currency_id: "gbp" });
    expect(lower.ok && lower.offer.currency).toBe("GBP");
    expect(mapEverflowOffer({ ...everflowOffer(1), currency_id: "XYZ" })).toEqual({
      ok: false,
      reason: "unknown currency XYZ",
    });
    expect(mapEverflowOffer({ ...everflowOffer(1), currency_id: undefined })).toEqual({
      ok: false,
      reason: "unknown currency (none)",
    });
  });

  it("takes the included countries of the geo ruleset, the category name, the status and the landing domain", () => {
    const raw = everflowOffer(9) as { relationship: Record<string, unknown> };
    raw.relationship.ruleset = {
      countries: [
        { country_code: "us", targeting_type: "include" },
        { country_code: "DE", targeting_type: "include" },
        { country_code: "US", targeting_type: "include" },
        { country_code: "RU", targeting_type: "exclude" },
        { country_code: "Narnia", targeting_type: "include" },
        "junk",
      ],
    };
    const mapped = mapEverflowOffer(raw);
    expect(mapped.ok && mapped.offer).toMatchObject({
      externalId: "9",
      countries: ["DE", "US"],
      categories: ["Health & Beauty"],
      status: "paused",
      previewUrl: "https://www.brand-9.example.com/landing?x=1",
      landingDomain: "brand-9.example.com",
    });
    // The tracking link is the affiliate's own: it is not part of what the directory keeps.
    expect(JSON.stringify(mapped)).not.toContain("track.example.com");
  });

  it("skips malformed records with a reason and never throws", () => {
    const hostile: unknown[] = [
      null,
      42,
      [],
      {},
      { network_offer_id: "abc", name: "x" },
      { network_offer_id: 1.5, name: "x" },
      { network_offer_id: 5, name: "   " },
      { network_offer_id: 5, name: "\ud800" },
      { network_offer_id: 5, name: "Ok", offer_status: "deleted" },
      { network_offer_id: 5, name: "Ok", offer_status: "active", currency_id: "USD" },
      { network_offer_id: 5, name: "Ok", offer_status: "active", currency_id: "USD", relationship: { payouts: "x" } },
      { ...everflowOffer(2), preview_url: "javascript:alert(1)" },
    ];
    const reasons = hostile.map((raw) => {
      const mapped = mapEverflowOffer(raw);
      return mapped.ok ? `ok ${mapped.offer.previewUrl}` : mapped.reason;
    });
    expect(reasons).toEqual([
      "not an object",
      "not an object",
      "not an object",
      "missing network_offer_id",
      "missing network_offer_id",
      "missing network_offer_id",
      "missing name",
      "missing name",
      "offer_status deleted",
      "no payout",
      "no payout",
      "ok null",
    ]);
  });
});

describe("everflowPages", () => {
  let server: FakeEverflow;
  beforeAll(async () => {
    server = await startFakeEverflow({ apiKey: "key-1", count: 205 });
  });
  afterAll(() => server.close());
  const fast = { retryBaseMs: 1, retryMaxMs: 20 };

  it("asks page after page with the key and page_size, and stops at paging.total_count", async () => {
    const pages: number[] = [];
    for await (const page of everflowPages({ endpoint: `${server.url}/`, apiKey: "key-1", pageSize: 50, ...fast }))
      pages.push(page.length);
    expect(pages).toEqual([50, 50, 50, 50, 5]);
    server.state.count = 200; // a full last page: the total ends it without an empty request
    const before = server.state.requests;
    const sizes: number[] = [];
    for await (const page of everflowPages({ endpoint: server.url, apiKey: "key-1", pageSize: 100, ...fast }))
      sizes.push(page.length);
    expect(sizes).toEqual([100, 100]);
    expect(server.state.requests - before).toBe(2);
    server.state.count = 205;
  });

  it("answers a typed error for 401 without retrying", async () => {
    const before = server.state.requests;
    const pages = everflowPages({ endpoint: server.url, apiKey: "nope", ...fast });
    await expect(pages.next()).rejects.toBeInstanceOf(PlatformAuthError);
    await expect(everflowPages({ endpoint: server.url, apiKey: "nope", ...fast }).next()).rejects.toThrow(
      "Everflow refused the API key (401)",
    );
    expect(server.state.requests - before).toBe(2);
  });

  it("times out a request that never answers, retrying a bounded number of times", async () => {
    const hang = await import("node:http").then(
      (http) =>
        new Promise<{ url: string; close: () => void; hits: () => number }>((resolve) => {
          let hits = 0;
          const s = http.createServer(() => {
            hits++;
          });
          s.listen(0, "127.0.0.1", () =>
            resolve({
              url: `http://127.0.0.1:${(s.address() as { port: number }).port}`,
              close: () => {
                s.closeAllConnections();
                s.close();
              },
              hits: () => hits,
            }),
          );
        }),
    );
    try {
      const pages = everflowPages({ endpoint: hang.url, apiKey: "k", timeoutMs: 50, attempts: 2, ...fast });
      await expect(pages.next()).rejects.toThrow(
        /could not be reached for page 1 \(timed out\); gave up after 2 attempts/,
      );
      expect(hang.hits()).toBe(2);
    } finally {
      hang.close();
    }
  });
});
