// Offers API (docs/product.md §7) and the offer pages' redirects, on PGlite or on
// PostgreSQL (TEST_DATABASE_URL), over the deterministic demo seed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import {
  OFFERS_MAX_PAGE,
  OFFERS_PAGE_SIZE,
  OFFERS_TOTAL_CAP,
  SPONSORED_PINS,
  type Category,
  type FilterOptions,
  type OfferPage,
  type OfferSearchResult,
  type TopCategory,
} from "#contracts/offers.ts";
import type { NetworkSummary } from "#contracts/networks.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { expectEvery } from "../helpers/assertions.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 30, offers: 1500, trafficSources: 4 } });
});
afterAll(() => t?.close());

async function search(payload: unknown, ip = "10.0.0.1") {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/offers/search",
    payload: payload as object,
    remoteAddress: ip,
  });
  return { status: res.statusCode, body: res.json() as OfferSearchResult & { message?: string } };
}
async function ok(payload: unknown, ip?: string) {
  const r = await search(payload, ip);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}
const q = <T>(s: ReturnType<typeof sql>) => t.db.query<T>(s);

describe("POST /api/offers/search", () => {
  it("answers { offers, total, page, pageSize } with the server's fixed page size", async () => {
    const body = await ok({});
    expect(body.pageSize).toBe(OFFERS_PAGE_SIZE);
    expect(body.page).toBe(1);
    expect(body.offers).toHaveLength(OFFERS_PAGE_SIZE);
    const [{ n }] = await q<{ n: number }>(sql`SELECT count(*)::int AS n FROM offers WHERE status = 'active'`);
    // Totals are counted up to the cap, and say so.
    expect(n).toBeGreaterThan(OFFERS_TOTAL_CAP);
    expect(body.total).toBe(OFFERS_TOTAL_CAP);
    expect(body.totalCapped).toBe(true);
    const small = await ok({ countries: ["US"], ppc: true });
    const [{ m }] = await q<{ m: number }>(
      sql`SELECT count(*)::int AS m FROM offers WHERE status = 'active' AND ppc AND 'US' = ANY (countries)`,
    );
    expect(small.total).toBe(m);
    expect(small.totalCapped).toBe(false);
    expect(body.offers[0]).toMatchObject({
      id: expect.any(Number),
      name: expect.any(String),
      networkName: expect.any(String),
      payoutType: expect.any(String),
    });
  });

  it("pins matching sponsored offers, labelled, at the top of the first Top Offers page only", async () => {
    const first = await ok({ selectedTab: "topOffers" });
    const pinned = first.offers.filter((o) => o.pinned);
    expect(pinned.length).toBe(SPONSORED_PINS);
    expectEvery(first.offers.slice(0, SPONSORED_PINS), (o) => Boolean(o.pinned && o.sponsored), "the first offers");
    // The rest of the page is ordered by popularity; pinned offers do not show twice.
    const second = await ok({ selectedTab: "topOffers", page: 2 });
    expect(second.offers.some((o) => o.pinned)).toBe(false);
    const ids = [...first.offers, ...second.offers].map((o) => o.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(second.offers).toHaveLength(OFFERS_PAGE_SIZE);
    // Another tab has no pins.
    expect((await ok({ selectedTab: "newest" })).offers.some((o) => o.pinned)).toBe(false);
  });

  it("lowercases and trims the query", async () => {
    const a = await ok({ query: "  KETO  " });
    const b = await ok({ query: "keto" });
    expect(a.query).toBe("keto");
    expect(a.total).toBe(b.total);
    expect(a.offers.map((o) => o.id)).toEqual(b.offers.map((o) => o.id));
  });

  it("finds offers by name, ranking name matches above other fields", async () => {
    const [{ name }] = await q<{ name: string }>(
      sql`SELECT name FROM offers WHERE status = 'active' AND name ~ '^[A-Za-z]{6,} ' ORDER BY popularity DESC LIMIT 1`,
    );
    const brand = name.split(" ")[0].toLowerCase();
    const body = await ok({ query: brand });
    expect(body.total).toBeGreaterThan(0);
    const organic = body.offers.filter((o) => !o.pinned);
    expect(organic[0].name.toLowerCase()).toContain(brand);
  });

  it("matches the word being typed as a prefix", async () => {
    const full = await ok({ query: "insurance" });
    const typing = await ok({ query: "insuran" });
    expect(full.total).toBeGreaterThan(0);
    expect(typing.total).toBeGreaterThanOrEqual(full.total);
  });

  it("searches network and vertical names too", async () => {
    const [{ network }] = await q<{ network: string }>(sql`
      SELECT n.name AS network FROM networks n WHERE n.offer_count > 5 AND n.name ~ '^[A-Za-z]+$' ORDER BY n.offer_count DESC LIMIT 1`);
    const body = await ok({ query: network.toLowerCase(), selectedTab: "newest" });
    expect(body.offers.length).toBeGreaterThan(0);
    expect(body.offers.some((o) => o.networkName === network)).toBe(true);
  });

  it("tolerates typos when full-text finds (almost) nothing", async () => {
    const exact = await ok({ query: "casino" });
    expect(exact.total).toBeGreaterThan(0);
    const typo = await ok({ query: "casinno" });
    expect(typo.fuzzy).toBe(true);
    expect(typo.offers.length).toBeGreaterThan(0);
    expect(typo.offers[0].name.toLowerCase()).toContain("casino");
    expect((await ok({ query: "zzqqxxjj" })).total).toBe(0);
  });

  it("filters OR within a list and AND across lists", async () => {
    const us = await ok({ countries: ["US"] });
    const ca = await ok({ countries: ["CA"] });
    const either = await ok({ countries: ["US", "CA"] });
    expectEvery(us.offers, (o) => o.countries.includes("US"), "US offers");
    expect(either.total).toBeGreaterThanOrEqual(Math.max(us.total, ca.total));
    expect(either.total).toBeLessThanOrEqual(us.total + ca.total);
    expectEvery(either.offers, (o) => o.countries.includes("US") || o.countries.includes("CA"), "US or CA offers");

    const [a, b] = await q<{ id: number }>(
      sql`SELECT id FROM networks WHERE offer_count > 0 ORDER BY offer_count DESC LIMIT 2`,
    );
    const nets = await ok({ networks: [a.id, b.id], countries: ["US"], selectedTab: "newest" });
    expectEvery(
      nets.offers,
      (o) => [a.id, b.id].includes(o.networkId) && o.countries.includes("US"),
      "offers of two networks",
    );
    const [{ n }] = await q<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM offers WHERE status = 'active' AND network_id IN (${a.id}, ${b.id}) AND 'US' = ANY (countries)`);
    expect(nets.total).toBe(n);

    const [cat] = await q<{ id: number; name: string }>(sql`SELECT id, name FROM categories WHERE name = 'Casino'`);
    const byCat = await ok({ categories: [cat.id], countries: "us" });
    expectEvery(byCat.offers, (o) => o.categories.includes("Casino") && o.countries.includes("US"), "US casino offers");
  });

  it("filters pay-per-call and mobile offers, and has tabs for them", async () => {
    for (const body of [await ok({ ppc: true }), await ok({ selectedTab: "payPerCall" })]) {
      expect(body.total).toBeGreaterThan(0);
      expectEvery(body.offers, (o) => o.ppc, "pay-per-call offers");
    }
    for (const body of [await ok({ mobile: true }), await ok({ selectedTab: "mobile" })]) {
      expect(body.total).toBeGreaterThan(0);
      expectEvery(body.offers, (o) => o.mobile, "mobile offers");
    }
  });

  it("orders the newest and highest-payout tabs and every sortBy", async () => {
    // An order is only checked on a whole page (an empty list is in every order).
    const fullPage = async (payload: object) => {
      const body = await ok(payload);
      expect(body.offers).toHaveLength(OFFERS_PAGE_SIZE);
      return body;
    };
    const newest = await fullPage({ selectedTab: "newest" });
    const dates = newest.offers.map((o) => o.createdAt);
    expect([...dates].sort().reverse()).toEqual(dates);

    const payoutOf = async (ids: number[]) => {
      const rows = await q<{ id: number; payout_usd: number | null }>(
        sql`SELECT id, payout_usd FROM offers WHERE id IN ${ids}`,
      );
      const m = new Map(rows.map((r) => [r.id, r.payout_usd ?? -1]));
      return ids.map((id) => m.get(id)!);
    };
    const high = await fullPage({ selectedTab: "highestPayout" });
    const p = await payoutOf(high.offers.map((o) => o.id));
    expect([...p].sort((x, y) => y - x)).toEqual(p);
    const low = await payoutOf((await fullPage({ sortBy: "payout", sortDesc: false })).offers.map((o) => o.id));
    expect([...low].sort((x, y) => x - y)).toEqual(low);
    expect(low[0]).toBeGreaterThanOrEqual(0);

    const byName = (await fullPage({ sortBy: "name" })).offers.map((o) => o.name.toLowerCase());
    expect([...byName].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))).toEqual(byName);
    const byNameDesc = (await fullPage({ sortBy: "name", sortDesc: true })).offers.map((o) => o.name.toLowerCase());
    expect(byNameDesc[0] >= byNameDesc[byNameDesc.length - 1]).toBe(true);

    const byNetwork = (await fullPage({ sortBy: "network" })).offers.map((o) => o.networkName.toLowerCase());
    expect([...byNetwork].sort()).toEqual(byNetwork);

    const pop = await fullPage({ sortBy: "popularity" });
    const pops = await q<{ id: number; popularity: number }>(
      sql`SELECT id, popularity FROM offers WHERE id IN ${pop.offers.map((o) => o.id)}`,
    );
    const pm = new Map(pops.map((r) => [r.id, r.popularity]));
    const ordered = pop.offers.map((o) => pm.get(o.id)!);
    expect([...ordered].sort((x, y) => y - x)).toEqual(ordered);
  });

  it("pages without overlap and answers an empty page past the end", async () => {
    const p1 = await ok({ selectedTab: "newest", page: 1, countries: ["US"] });
    const p2 = await ok({ selectedTab: "newest", page: "2", countries: ["US"] });
    expect(p2.page).toBe(2);
    expect(p2.offers.length).toBeGreaterThan(0);
    expect(p1.offers.map((o) => o.id).filter((id) => p2.offers.some((o) => o.id === id))).toEqual([]);
    expect(p1.totalCapped).toBe(false);
    const last = Math.ceil(p1.total / OFFERS_PAGE_SIZE);
    expect((await ok({ selectedTab: "newest", page: last, countries: ["US"] })).offers.length).toBeGreaterThan(0);
    expect((await ok({ selectedTab: "newest", page: last + 1, countries: ["US"] })).offers).toEqual([]);
  });

  it("accepts comma-separated lists and numeric strings", async () => {
    const a = await ok({ countries: "us,ca", ppc: "true" });
    const b = await ok({ countries: ["US", "CA"], ppc: true });
    expect(a.total).toBe(b.total);
  });

  it.each([
    [{ page: "abc" }, "page must be an integer"],
    [{ page: 0 }, "page must be greater than or equal to 1"],
    [{ page: 1.5 }, "page must be an integer"],
    [{ page: OFFERS_MAX_PAGE + 1 }, `page must be less than or equal to ${OFFERS_MAX_PAGE}`],
    [{ sortBy: "price" }, "sortBy must be one of payout, name, network, newest, popularity"],
    [
      { selectedTab: "everything" },
      "selectedTab must be one of topOffers, newest, highestPayout, payPerCall, mobile, updated, payoutIncreased",
    ],
    [{ networks: ["abc"] }, "networks must be an integer"],
    [{ networks: [0] }, "networks must be greater than or equal to 1"],
    [{ categories: { a: 1 } }, "categories must be a list of ids"],
    [{ countries: ["USA"] }, "countries must be two-letter country codes"],
    [{ query: 42 }, "query must be text"],
    [{ query: "x".repeat(201) }, "query must be at most 200 characters long"],
    [{ ppc: "maybe" }, "ppc must be true or false"],
    [{ sortDesc: 3 }, "sortDesc must be true or false"],
    [[1, 2], "The search payload must be a JSON object"],
  ])("answers 400 { message } for %j", async (payload, message) => {
    const r = await search(payload);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ message });
  });

  it("answers 400 for malformed JSON and an unknown site", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/offers/search",
      headers: { "content-type": "application/json" },
      payload: "{nope",
    });
    expect(res.statusCode).toBe(400);
    expect(typeof res.json().message).toBe("string");
    const site = await t.app.inject({
      method: "POST",
      url: "/api/offers/search",
      headers: { "x-site": "elsewhere" },
      payload: {},
    });
    expect(site.statusCode).toBe(400);
    expect(site.json()).toEqual({ message: "Unknown site" });
  });
});

describe("GET /api/top-searches", () => {
  it("answers the repeated recent searches, normalised, without one-offs, junk or half-typed words", async () => {
    await t.app.inject("/api/top-searches"); // writes what earlier tests searched (the log is written in batches)
    await t.db.query(sql`DELETE FROM search_log`);
    for (const ip of ["1.1.1.1", "1.1.1.2", "1.1.1.3"]) await ok({ query: "Casino " }, ip);
    for (const ip of ["1.1.1.1", "1.1.1.2"]) {
      await ok({ query: "keto" }, ip);
      await ok({ query: "ket" }, ip); // typed on the way to "keto"
      await ok({ query: "zzqqxxjj" }, ip); // found nothing
      await ok({ query: "casino", page: 2 }, ip); // paging is not a new search
    }
    await ok({ query: "dating" }, "1.1.1.9"); // one visitor only
    for (let i = 0; i < 5; i++) await ok({ query: "insurance" }, "1.1.1.5"); // one visitor, many times
    const res = await t.app.inject("/api/top-searches");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ keywords: ["casino", "keto"] });
    const logged = await q<{ query: string }>(sql`SELECT DISTINCT query FROM search_log`);
    expect(logged.map((r) => r.query)).toContain("casino");
  });
});

describe("offer lookups", () => {
  it("GET /api/offers/{id}/{slug} answers the offer, its network and the same offer at other networks, best first", async () => {
    const [{ product_key }] = await q<{ product_key: string }>(sql`
      SELECT product_key FROM offers WHERE status = 'active' AND payout_usd IS NOT NULL GROUP BY product_key HAVING count(*) >= 3 ORDER BY product_key LIMIT 1`);
    const [offer] = await q<{ id: number; slug: string; legacy_id: number }>(
      sql`SELECT id, slug, legacy_id FROM offers WHERE product_key = ${product_key} AND status = 'active' ORDER BY id LIMIT 1`,
    );
    const res = await t.app.inject(`/api/offers/${offer.id}/${offer.slug}`);
    expect(res.statusCode).toBe(200);
    const body = res.json<OfferPage>();
    expect(body.offer).toMatchObject({
      id: offer.id,
      slug: offer.slug,
      legacyId: offer.legacy_id,
      productKey: product_key,
    });
    expect(body.offer.network).toMatchObject({
      id: expect.any(Number),
      name: expect.any(String),
      avgRating: expect.any(Number),
    });
    const same = body.sameOffer;
    expect(same.length).toBeGreaterThanOrEqual(3);
    expect(same.filter((s) => s.current).map((s) => s.id)).toEqual([offer.id]);
    const usd = same.map((s) => s.payoutUsd ?? -1);
    expect([...usd].sort((a, b) => b - a)).toEqual(usd);
    expect(new Set(same.map((s) => s.networkId)).size).toBe(same.length);
    expect(Array.isArray(body.similarOffers)).toBe(true);

    // A wrong slug still finds the offer by id and tells the canonical slug.
    const wrong = await t.app.inject(`/api/offers/${offer.id}/not-the-slug`);
    expect(wrong.statusCode).toBe(200);
    expect(wrong.json().offer.slug).toBe(offer.slug);
  });

  it("GET /api/offers/legacy/{id} finds an offer by the old site's id", async () => {
    const [offer] = await q<{ id: number; legacy_id: number }>(
      sql`SELECT id, legacy_id FROM offers ORDER BY id DESC LIMIT 1`,
    );
    const res = await t.app.inject(`/api/offers/legacy/${offer.legacy_id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().offer.id).toBe(offer.id);
    for (const bad of ["999999999", "abc", "99999999999999999999"]) {
      const r = await t.app.inject(`/api/offers/legacy/${bad}`);
      expect(r.statusCode).toBe(404);
      expect(r.json()).toEqual({ message: "Offer not found" });
    }
  });

  it("GET /api/offers/{slug} finds the offer with that slug; a number is an id", async () => {
    const [offer] = await q<{ id: number; slug: string }>(sql`
      SELECT DISTINCT ON (slug) id, slug FROM offers WHERE status = 'active' ORDER BY slug, popularity DESC, id LIMIT 1`);
    const res = await t.app.inject(`/api/offers/${offer.slug}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().offer.id).toBe(offer.id);
    expect((await t.app.inject(`/api/offers/${offer.id}`)).json().offer.id).toBe(offer.id);
    for (const bad of ["no-such-offer", "999999999", "Bad%20Slug!"]) {
      const r = await t.app.inject(`/api/offers/${bad}`);
      expect(r.statusCode).toBe(404);
      expect(r.json()).toEqual({ message: "Offer not found" });
    }
    const unknownId = await t.app.inject("/api/offers/999999999/whatever");
    expect(unknownId.statusCode).toBe(404);
    expect(unknownId.json()).toEqual({ message: "Offer not found" });
  });
});

describe("verticals", () => {
  it("GET /api/verticals answers { categories } and GET /api/top-categories the top ones", async () => {
    const all = await t.app.inject("/api/verticals?site=offeratlas");
    expect(all.statusCode).toBe(200);
    const { categories } = all.json<{ categories: Category[] }>();
    const [{ n }] = await q<{ n: number }>(sql`SELECT count(*)::int AS n FROM categories`);
    expect(categories).toHaveLength(n);
    expect(categories.map((c) => c.name)).toContain("Casino");
    const top = (await t.app.inject("/api/top-categories?site=offeratlas")).json<{ categories: TopCategory[] }>()
      .categories;
    expect(top.length).toBeLessThan(categories.length);
    expectEvery(top, (c) => c.top && c.offerCount >= 0, "top categories");
    expect((await t.app.inject("/api/verticals?site=nowhere")).statusCode).toBe(400);
  });

  it("GET /api/offer-filters answers the search's three filter lists, cacheable", async () => {
    const res = await t.app.inject("/api/offer-filters");
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=60");
    const lists = res.json<FilterOptions>();
    // Networks: the spec's name-sorted list (only networks with offers, by lowercase name).
    const sorted = (await t.app.inject("/api/networks?sort=name")).json<{ networks: NetworkSummary[] }>().networks;
    expect(sorted.length).toBeGreaterThan(0);
    expect(lists.networks.map((n) => n.id)).toEqual(sorted.map((n) => n.id));
    const verticals = (await t.app.inject("/api/verticals")).json<{ categories: Category[] }>().categories;
    expect(verticals.length).toBeGreaterThan(0);
    expect(lists.categories.map((c) => c.id)).toEqual(verticals.map((c) => c.id));
    expect(lists.countries[0]).toEqual({ code: "US", name: "United States" });
    expect(lists.countries.length).toBeGreaterThan(200);
  });
});

describe("offer pages (server-rendered)", () => {
  it("share the API's lookup: a bare slug names its offer, an old-site id is tried where the id goes", async () => {
    const [bySlug] = await q<{ id: number; slug: string }>(sql`
      SELECT DISTINCT ON (slug) id, slug FROM offers WHERE status = 'active' ORDER BY slug, popularity DESC, id LIMIT 1`);
    const slugPage = await t.app.inject(`/offer/${bySlug.slug}`);
    expect(slugPage.statusCode).toBe(301);
    expect(slugPage.headers.location).toBe(`/offer/${bySlug.id}/${bySlug.slug}`);
    expect((await t.app.inject(`/api/offers/${bySlug.slug}`)).json().offer.id).toBe(bySlug.id);

    const [old] = await q<{ id: number; slug: string; legacy_id: number }>(sql`
      SELECT o.id, o.slug, o.legacy_id FROM offers o
      WHERE o.legacy_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM offers x WHERE x.id = o.legacy_id) ORDER BY o.id LIMIT 1`);
    expect(old).toBeDefined();
    const oldPage = await t.app.inject(`/offer/${old.legacy_id}`);
    expect(oldPage.statusCode).toBe(301);
    expect(oldPage.headers.location).toBe(`/offer/${old.id}/${old.slug}`);
    // The API keeps ids and old-site ids apart: /api/offers/legacy/{id} is the way to the latter.
    expect((await t.app.inject(`/api/offers/${old.legacy_id}`)).statusCode).toBe(404);
    expect((await t.app.inject(`/api/offers/legacy/${old.legacy_id}`)).json().offer.id).toBe(old.id);
  });

  it("redirects a missing or wrong slug, a legacy id and the legacy address to the canonical page", async () => {
    const [offer] = await q<{ id: number; slug: string; legacy_id: number }>(
      sql`SELECT id, slug, legacy_id FROM offers WHERE status = 'active' ORDER BY id LIMIT 1`,
    );
    const canonical = `/offer/${offer.id}/${offer.slug}`;
    for (const from of [
      `/offer/${offer.id}`,
      `/offer/${offer.id}/wrong-slug`,
      `/offer/legacy/${offer.legacy_id}`,
      `/offer/${offer.legacy_id}/${offer.slug}`,
    ]) {
      const res = await t.app.inject(from);
      expect(res.statusCode, from).toBe(301);
      expect(res.headers.location, from).toBe(canonical);
    }
    const legacy = await t.app.inject(`/affiliate-offers/details/offerId/${offer.legacy_id}/${offer.slug}`);
    expect(legacy.statusCode).toBe(301);
    expect(legacy.headers.location).toBe(canonical);
    const page = await t.app.inject(canonical);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Same offer at other networks");
    expect((await t.app.inject("/offer/999999999/nothing")).statusCode).toBe(404);
  });

  it("serves the home search without JavaScript: filters and search from a plain GET", async () => {
    const [net] = await q<{ id: number; name: string }>(
      sql`SELECT id, name FROM networks WHERE offer_count > 0 ORDER BY offer_count DESC LIMIT 1`,
    );
    const res = await t.app.inject(
      `/?search=casino&selectedTab=topOffers&page=1&networks=${net.id}&countries=US&countries=CA`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("Enter a search term below to find and compare offers");
    expect(res.body).toMatch(/<form[^>]*method="get"/);
    expect(res.body).toContain("Clear Filters");
    expect(res.body).toContain("2 selected");
    expect(res.body).toContain("1 selected");
    const compare = await t.app.inject("/compare?ids=1,2");
    expect(compare.statusCode).toBe(200);
    expect(compare.body).toContain("Compare offers");
    expect((await t.app.inject("/pay-per-call")).statusCode).toBe(200);
    expect((await t.app.inject("/pay-per-call-offers")).statusCode).toBe(200);
  });
});
