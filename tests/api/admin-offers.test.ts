// The console's offers: admins create, edit every field, retire and restore;
// payout_usd follows the currency; a stale edit answers 409; sponsorship holds
// only inside its window and for its keywords; a retired offer leaves search,
// the network's count, the feed and the sitemap at once (with the search and
// page caches on) and its addresses answer 410. Every route: 401/403/success.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import type { AdminOffer, AdminOfferPage, OfferSearchResult } from "#contracts/offers.ts";
import { usdValue } from "#core/reference/currencies.ts";
import { AUTH_COOKIE } from "#core/auth/sessions.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";

let t: TestApp;
let admin: Awaited<ReturnType<typeof signInWithRoles>>;
let networkId: number;
let otherNetworkId: number;
let categoryId: number;

/** A UTC day `days` from today, as the form and the API write it. */
const utcDay = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  // Caches on, as in production: every change must reach the next answer anyway.
  t = await createTestApp({
    seed: { networks: 3, offers: 60, trafficSources: 1 },
    env: { SEARCH_CACHE_SECONDS: "60", PAGE_CACHE_SECONDS: "60" },
  });
  admin = await signInWithRoles(t, ["admin"]);
  [{ id: networkId }, { id: otherNetworkId }] = await t.db.query<{ id: number }>(
    sql`SELECT id FROM networks ORDER BY id LIMIT 2`,
  );
  [{ id: categoryId }] = await t.db.query<{ id: number }>(sql`SELECT id FROM categories ORDER BY id LIMIT 1`);
});
afterAll(() => t?.close());

const body = (over: Record<string, unknown> = {}) => ({
  name: "Quokkaglow Solar Panels Leads",
  networkId,
  description: "Homeowners asking for a solar quote.",
  payoutType: "CPL",
  payoutAmount: 42.5,
  currency: "EUR",
  countries: ["US", "ca"],
  categoryIds: [categoryId],
  mobile: true,
  allowedTraffic: "Email, Search",
  status: "active",
  ...over,
});

const call = (method: "GET" | "POST" | "PUT", url: string, payload?: object, headers = admin.headers) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
const create = (over: Record<string, unknown> = {}) => call("POST", "/api/admin/offers", body(over));
const search = async (query: string) => {
  const res = await t.app.inject({ method: "POST", url: "/api/offers/search", payload: { query } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<OfferSearchResult>();
};
const offerCount = async (id: number) =>
  (await t.db.query<{ n: number }>(sql`SELECT offer_count AS n FROM networks WHERE id = ${id}`))[0].n;
const audit = (action: string, id: number) =>
  t.db.query<{ before: Record<string, unknown> | null; after: Record<string, unknown> | null; actor_id: number }>(
    sql`SELECT before, after, actor_id FROM audit_log WHERE action = ${action} AND subject_type = 'offer' AND subject_id = ${id} ORDER BY id`,
  );

describe("/api/admin/offers: roles", () => {
  it("answers 401 without a session and 403 to a plain user and to a moderator on every route", async () => {
    const [{ id }] = await t.db.query<{ id: number }>(sql`SELECT id FROM offers ORDER BY id LIMIT 1`);
    const routes: ["GET" | "POST" | "PUT", string, object?][] = [
      ["GET", "/api/admin/offers"],
      ["POST", "/api/admin/offers", body()],
      ["GET", `/api/admin/offers/${id}`],
      ["PUT", `/api/admin/offers/${id}`, body({ updatedAt: "2026-01-01T00:00:00.000000Z" })],
      ["POST", `/api/admin/offers/${id}/retire`, { updatedAt: "x" }],
      ["POST", `/api/admin/offers/${id}/restore`, { updatedAt: "x" }],
    ];
    const plain = await signInWithRoles(t, []);
    const moderator = await signInWithRoles(t, ["moderator"]);
    for (const [method, url, payload] of routes) {
      const anonymous = await t.app.inject({ method, url, ...(payload ? { payload } : {}) });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      expect(anonymous.json()).toEqual({ message: expect.any(String) });
      expect((await call(method, url, payload, plain.headers)).statusCode, `${method} ${url}`).toBe(403);
      expect((await call(method, url, payload, moderator.headers)).statusCode, `${method} ${url}`).toBe(403);
    }
    const [row] = await t.db.query<{ status: string }>(sql`SELECT status FROM offers WHERE id = ${id}`);
    expect(row.status).not.toBe("retired");
  });
});

describe("/api/admin/offers: create, list, edit", () => {
  let offer: AdminOffer;

  it("creates an offer with its USD payout, a slug, an audit row and the network's new count", async () => {
    const before = await offerCount(networkId);
    const res = await create();
    expect(res.statusCode, res.body).toBe(201);
    offer = res.json<AdminOffer>();
    expect(offer).toMatchObject({
      name: "Quokkaglow Solar Panels Leads",
      slug: "quokkaglow-solar-panels-leads",
      networkId,
      status: "active",
      currency: "EUR",
      payoutAmount: 42.5,
      payoutUsd: usdValue(42.5, "EUR"),
      countries: ["US", "CA"],
      categoryIds: [categoryId],
      mobile: true,
      ppc: false,
      allowedTraffic: ["Email", "Search"],
      sponsored: false,
      sponsoredKeywords: [],
    });
    expect(offer.payoutUsd).toBe(45.9);
    expect(await offerCount(networkId)).toBe(before + 1);
    const rows = await audit("offer.create", offer.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].actor_id).toBe(admin.user.id);
    expect(rows[0].after).toMatchObject({ name: offer.name, payoutUsd: 45.9 });
    // The same name again at the same network gets its own slug.
    const again = await create();
    expect(again.statusCode, again.body).toBe(201);
    const twin = again.json<AdminOffer>();
    expect(twin.slug).toBe("quokkaglow-solar-panels-leads-2");
    expect(await offerCount(networkId)).toBe(before + 2);
    const retired = await call("POST", `/api/admin/offers/${twin.id}/retire`, { updatedAt: twin.updatedAt });
    expect(retired.statusCode, retired.body).toBe(200);
    expect(await offerCount(networkId)).toBe(before + 1);
  });

  it("refuses bad input with 400 and the field's message, and stores nothing", async () => {
    const [{ n: before }] = await t.db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM offers`);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: "  " }, /name cannot be blank/],
      [{ networkId: 987654 }, /networkId must be the id of a network/],
      [{ networkId: "abc" }, /networkId must be an integer/],
      [{ currency: "XAF" }, /currency must be one of/],
      [{ currency: 12 }, /currency must be a currency code/],
      [{ countries: ["ZZ"] }, /Unknown country code: ZZ/],
      [{ countries: ["USA"] }, /two-letter/],
      [{ categoryIds: [987654] }, /categoryIds must be ids of verticals/],
      [{ categoryIds: [1e12] }, /categoryIds must be a list of vertical ids/],
      [{ payoutAmount: null }, /Give a payout amount or a percentage/],
      [{ payoutAmount: -1 }, /payoutAmount must be greater than or equal to 0/],
      [{ payoutAmount: "12.345" }, /payoutAmount must be/],
      [{ payoutPercent: 150 }, /payoutPercent must be at most 100/],
      [{ payoutType: "CPM" }, /payoutType must be one of/],
      [{ status: "retired" }, /retire an offer with its own action/],
      [{ slug: "Not A Slug" }, /slug can only contain/],
      [{ slug: offer.slug }, /Another offer already has this slug/],
      [{ previewUrl: "javascript:alert(1)" }, /previewUrl must be an http or https address/],
      [{ landingDomain: "not a host" }, /landingDomain must be a host name/],
      [{ sponsoredFrom: "2026-02-30" }, /sponsoredFrom must be a date/],
      [{ sponsoredFrom: utcDay(3), sponsoredUntil: utcDay(1) }, /sponsoredUntil must be on or after sponsoredFrom/],
      [{ sponsoredKeywords: ["x".repeat(101)] }, /at most 100 characters/],
      [{ mobile: "maybe" }, /mobile must be true or false/],
      [{ description: "d".repeat(5001) }, /description must be at most 5000 characters/],
    ];
    for (const [over, message] of cases) {
      const res = await create(over);
      expect(res.statusCode, JSON.stringify(over).slice(0, 80)).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(message);
    }
    const bare = await call("POST", "/api/admin/offers", []);
    expect(bare.statusCode).toBe(400);
    const [{ n: after }] = await t.db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM offers`);
    expect(after).toBe(before);
  });

  it("lists offers searched by name and filtered by network, status and sponsorship, sorted and paged", async () => {
    const found = await call("GET", "/api/admin/offers?q=QuokkaGlow&status=active");
    expect(found.statusCode, found.body).toBe(200);
    const page = found.json<AdminOfferPage>();
    expect(page).toMatchObject({ total: 1, page: 1, pageSize: 50 });
    // Retired offers are listed too (the twin made above).
    expect((await call("GET", "/api/admin/offers?q=quokkaglow")).json<AdminOfferPage>().total).toBe(2);
    const retired = (await call("GET", "/api/admin/offers?q=quokkaglow&status=retired")).json<AdminOfferPage>();
    expect(retired.items.map((o) => [o.slug, o.status])).toEqual([["quokkaglow-solar-panels-leads-2", "retired"]]);
    expect(page.items[0]).toMatchObject({ id: offer.id, networkId, status: "active", currency: "EUR" });
    // A LIKE wildcard in the text is taken literally.
    expect((await call("GET", "/api/admin/offers?q=%25")).json<AdminOfferPage>().total).toBe(0);
    const [{ n }] = await t.db.query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM offers WHERE network_id = ${otherNetworkId}`,
    );
    const byNetwork = (await call("GET", `/api/admin/offers?networkId=${otherNetworkId}`)).json<AdminOfferPage>();
    expect(byNetwork.total).toBe(n);
    expect(byNetwork.items.every((o) => o.networkId === otherNetworkId)).toBe(true);
    const [{ sponsored }] = await t.db.query<{ sponsored: number }>(
      sql`SELECT count(*)::int AS sponsored FROM offers WHERE sponsored`,
    );
    expect((await call("GET", "/api/admin/offers?sponsored=true")).json<AdminOfferPage>().total).toBe(sponsored);
    const byName = (await call("GET", "/api/admin/offers?sort=name&dir=asc")).json<AdminOfferPage>();
    const names = byName.items.map((o) => o.name.toLowerCase());
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const all = (await call("GET", "/api/admin/offers")).json<AdminOfferPage>();
    expect(all.total).toBeGreaterThan(50);
    expect(all.items).toHaveLength(50);
    // The most recently changed first.
    const changed = all.items.map((o) => o.updatedAt);
    expect(changed).toEqual([...changed].sort().reverse());
    const second = (await call("GET", "/api/admin/offers?page=2")).json<AdminOfferPage>();
    expect(second.items.length).toBe(all.total - 50);
    for (const bad of [
      "?status=gone",
      "?page=abc",
      "?sponsored=maybe",
      "?networkId=-1",
      "?networkId=99999999999999999999",
      `?q=${"q".repeat(201)}`,
    ])
      expect((await call("GET", `/api/admin/offers${bad}`)).statusCode, bad).toBe(400);
    // An unknown sort falls back to the default order rather than refusing.
    expect((await call("GET", "/api/admin/offers?sort=password")).statusCode).toBe(200);
  });

  it("reads one offer; an unknown or malformed id answers 404", async () => {
    const res = await call("GET", `/api/admin/offers/${offer.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json<AdminOffer>()).toEqual(offer);
    for (const id of ["987654321", "abc", "1e3"]) {
      const missing = await call("GET", `/api/admin/offers/${id}`);
      expect(missing.statusCode, id).toBe(404);
      expect(missing.json()).toEqual({ message: "Offer not found" });
    }
  });

  it("saves every field with a recomputed USD payout and an audit row; a stale edit answers 409", async () => {
    const oldCount = await offerCount(networkId);
    const otherCount = await offerCount(otherNetworkId);
    const res = await call(
      "PUT",
      `/api/admin/offers/${offer.id}`,
      body({
        updatedAt: offer.updatedAt,
        networkId: otherNetworkId,
        currency: "GBP",
        payoutAmount: "100",
        payoutPercent: "12.5",
        slug: "quokkaglow-solar",
        ppc: true,
        status: "paused",
        restrictedTraffic: ["Incentive"],
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json<AdminOffer>();
    expect(saved).toMatchObject({
      networkId: otherNetworkId,
      currency: "GBP",
      payoutAmount: 100,
      payoutPercent: 12.5,
      payoutUsd: usdValue(100, "GBP"),
      slug: "quokkaglow-solar",
      ppc: true,
      status: "paused",
      restrictedTraffic: ["Incentive"],
    });
    expect(saved.payoutUsd).toBe(127);
    expect(saved.updatedAt).not.toBe(offer.updatedAt);
    // Paused and moved: neither network counts it now.
    expect(await offerCount(networkId)).toBe(oldCount - 1);
    expect(await offerCount(otherNetworkId)).toBe(otherCount);
    const [row] = await audit("offer.update", offer.id);
    expect(row.before).toMatchObject({ currency: "EUR", payoutUsd: 45.9, status: "active" });
    expect(row.after).toMatchObject({ currency: "GBP", payoutUsd: 127, status: "paused" });

    const stale = await call("PUT", `/api/admin/offers/${offer.id}`, body({ updatedAt: offer.updatedAt }));
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ message: expect.stringContaining("Someone else changed this offer") });
    const missingVersion = await call("PUT", `/api/admin/offers/${offer.id}`, body());
    expect(missingVersion.statusCode).toBe(400);
    expect((await call("GET", `/api/admin/offers/${offer.id}`)).json<AdminOffer>()).toEqual(saved);

    // Back to the first network, active, for the tests below.
    const back = await call(
      "PUT",
      `/api/admin/offers/${offer.id}`,
      body({ updatedAt: saved.updatedAt, slug: saved.slug }),
    );
    expect(back.statusCode, back.body).toBe(200);
    expect(await offerCount(networkId)).toBe(oldCount);
  });
});

describe("/admin/offers pages", () => {
  const cookie = () => `${AUTH_COOKIE}=${admin.headers.authorization.replace("Bearer ", "")}`;
  const form = (values: Record<string, string>) => new URLSearchParams(values).toString();

  it("list and edit an offer through the same service; a stale save shows the 409 message", async () => {
    const list = await t.app.inject({
      url: "/admin/offers?q=quokkaglow&sort=name&dir=asc",
      headers: { cookie: cookie() },
    });
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain("Quokkaglow Solar Panels Leads");
    const bad = await t.app.inject({ url: "/admin/offers?status=gone", headers: { cookie: cookie() } });
    expect(bad.statusCode).toBe(400);
    const [{ id }] = (await call("GET", "/api/admin/offers?q=quokkaglow&status=active")).json<AdminOfferPage>().items;
    const edit = await t.app.inject({ url: `/admin/offers/${id}`, headers: { cookie: cookie() } });
    expect(edit.statusCode).toBe(200);
    expect(edit.body).toContain('data-testid="offer-form"');
    const stale = await t.app.inject({
      method: "POST",
      url: `/admin/offers/${id}`,
      headers: { cookie: cookie(), "content-type": "application/x-www-form-urlencoded" },
      payload: form({
        intent: "save",
        updatedAt: "2020-01-01T00:00:00.000000Z",
        name: "Overwritten",
        networkId: String(networkId),
        payoutType: "CPA",
        payoutAmount: "1",
        currency: "USD",
        status: "active",
      }),
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.body).toContain("Someone else changed this offer");
    const refused = await t.app.inject({
      method: "POST",
      url: "/admin/offers/new",
      headers: { cookie: cookie(), "content-type": "application/x-www-form-urlencoded" },
      payload: form({ intent: "save", name: "", networkId: String(networkId), payoutType: "CPA", currency: "USD" }),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('data-field-error="name"');
    const [row] = await t.db.query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM offers WHERE name = 'Overwritten'`,
    );
    expect(row.n).toBe(0);
  });
});

describe("sponsorship: a window and keywords", () => {
  let offer: AdminOffer;
  const own = { name: "Wombatix Solar Panels Deal", description: "Solar panels for homes." };
  const sponsor = async (over: Record<string, unknown>) => {
    const res = await call(
      "PUT",
      `/api/admin/offers/${offer.id}`,
      body({ ...own, updatedAt: offer.updatedAt, ...over }),
    );
    expect(res.statusCode, res.body).toBe(200);
    offer = res.json<AdminOffer>();
  };
  const shown = async (query: string) => {
    const result = await search(query);
    const row = result.offers.find((o) => o.id === offer.id);
    expect(row, `${query} finds the offer`).toBeDefined();
    return { sponsored: row!.sponsored, pinned: row!.pinned === true, first: result.offers[0].id === offer.id };
  };
  const detailSponsored = async () => {
    const res = await t.app.inject({ url: `/api/offers/${offer.id}/${offer.slug}` });
    expect(res.statusCode).toBe(200);
    return res.json<{ offer: { sponsored: boolean } }>().offer.sponsored;
  };

  beforeAll(async () => {
    const res = await create(own);
    expect(res.statusCode, res.body).toBe(201);
    offer = res.json<AdminOffer>();
  });

  it("is pinned and marked only for searches holding one of its keywords", async () => {
    // Warm the search cache with the unsponsored answer: the edit must clear it.
    expect(await shown("wombatix solar panels")).toEqual({ sponsored: false, pinned: false, first: true });
    await sponsor({ sponsored: true, sponsoredKeywords: "Solar Panels, heat pumps!" });
    expect(offer.sponsoredKeywords).toEqual(["solar panels", "heat pumps"]);
    expect(await shown("wombatix solar panels")).toEqual({ sponsored: true, pinned: true, first: true });
    // The same offer for a search without its keywords: listed, not sponsored.
    expect(await shown("wombatix")).toMatchObject({ sponsored: false, pinned: false });
    expect(await shown("wombatix solar")).toMatchObject({ sponsored: false, pinned: false });
    // Outside a search (its page) keywords never match.
    expect(await detailSponsored()).toBe(false);
  });

  it("is sponsored only inside its window of UTC days", async () => {
    await sponsor({ sponsored: true, sponsoredFrom: utcDay(1), sponsoredUntil: utcDay(5) });
    expect(await shown("wombatix")).toMatchObject({ sponsored: false, pinned: false });
    expect(await detailSponsored()).toBe(false);
    await sponsor({ sponsored: true, sponsoredFrom: utcDay(-5), sponsoredUntil: utcDay(-1) });
    expect(await shown("wombatix")).toMatchObject({ sponsored: false, pinned: false });
    await sponsor({ sponsored: true, sponsoredFrom: utcDay(-1), sponsoredUntil: utcDay(0) });
    expect(await shown("wombatix")).toEqual({ sponsored: true, pinned: true, first: true });
    expect(await detailSponsored()).toBe(true);
    expect(offer).toMatchObject({ sponsoredFrom: utcDay(-1), sponsoredUntil: utcDay(0) });
    await sponsor({ sponsored: false });
    expect(await shown("wombatix")).toMatchObject({ sponsored: false, pinned: false });
  });
});

describe("retiring and restoring", () => {
  let offer: AdminOffer;
  const page = (url: string) => t.app.inject({ url });

  beforeAll(async () => {
    const res = await create({ name: "Numbatrix Home Warranty", sponsored: true });
    expect(res.statusCode, res.body).toBe(201);
    offer = res.json<AdminOffer>();
  });

  it("takes a retired offer out of search, counts, feed and sitemap at once; its addresses answer 410", async () => {
    const publicPath = `/offer/${offer.id}/${offer.slug}`;
    // Warm the caches: the search answer and the anonymous page copy.
    expect((await search("numbatrix")).offers.map((o) => o.id)).toEqual([offer.id]);
    expect((await page(publicPath)).statusCode).toBe(200);
    expect((await page(publicPath)).headers["x-page-cache"]).toBe("hit");
    expect((await page("/feeds/offers.xml")).body).toContain(publicPath);
    expect((await page(`/sitemaps/offers/1.xml`)).body).toContain(publicPath);
    const count = await offerCount(networkId);

    const res = await call("POST", `/api/admin/offers/${offer.id}/retire`, { updatedAt: offer.updatedAt });
    expect(res.statusCode, res.body).toBe(200);
    const retired = res.json<AdminOffer>();
    expect(retired.status).toBe("retired");

    expect((await search("numbatrix")).offers).toEqual([]);
    expect(await offerCount(networkId)).toBe(count - 1);
    expect((await page("/feeds/offers.xml")).body).not.toContain(publicPath);
    expect((await page(`/sitemaps/offers/1.xml`)).body).not.toContain(publicPath);
    const api = await page(`/api/offers/${offer.id}/${offer.slug}`);
    expect(api.statusCode).toBe(410);
    expect(api.json()).toEqual({ message: "This offer is no longer listed" });
    expect((await page(`/api/offers/${offer.slug}`)).statusCode).toBe(410);
    const gone = await page(publicPath);
    expect(gone.statusCode).toBe(410);
    expect(gone.headers["x-page-cache"]).toBeUndefined();
    expect(gone.body).toContain('data-testid="no-longer-listed"');
    expect(gone.body).toContain("Numbatrix Home Warranty is no longer listed");
    expect(gone.body).toContain(`/network/${networkId}/`);
    // Other addresses of it: a wrong slug, the bare id.
    expect((await page(`/offer/${offer.id}/old-slug`)).statusCode).toBe(410);
    expect((await page(`/offer/${offer.id}`)).statusCode).toBe(410);
    expect(await audit("offer.retire", offer.id)).toEqual([
      expect.objectContaining({ before: { status: "active" }, after: { status: "retired" } }),
    ]);

    // Retired twice, edited while retired, restored from a stale version: 409.
    const again = await call("POST", `/api/admin/offers/${offer.id}/retire`, { updatedAt: retired.updatedAt });
    expect(again.statusCode).toBe(409);
    expect(
      (await call("PUT", `/api/admin/offers/${offer.id}`, body({ updatedAt: retired.updatedAt }))).statusCode,
    ).toBe(409);
    const stale = await call("POST", `/api/admin/offers/${offer.id}/restore`, { updatedAt: offer.updatedAt });
    expect(stale.statusCode).toBe(409);
    expect((await call("POST", `/api/admin/offers/${offer.id}/restore`, {})).statusCode).toBe(400);

    const restored = await call("POST", `/api/admin/offers/${offer.id}/restore`, { updatedAt: retired.updatedAt });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json<AdminOffer>().status).toBe("active");
    expect((await search("numbatrix")).offers.map((o) => o.id)).toEqual([offer.id]);
    expect((await page(publicPath)).statusCode).toBe(200);
    expect(await offerCount(networkId)).toBe(count);
    expect(await audit("offer.restore", offer.id)).toHaveLength(1);
    const notRetired = await call("POST", `/api/admin/offers/${offer.id}/restore`, {
      updatedAt: restored.json<AdminOffer>().updatedAt,
    });
    expect(notRetired.statusCode).toBe(409);
  });

  it("answers 410, never 500, on the old site's links to a retired offer", async () => {
    const [seeded] = await t.db.query<{ id: number; legacy_id: number; updatedAt: string }>(sql`
      SELECT id, legacy_id, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "updatedAt"
      FROM offers WHERE legacy_id IS NOT NULL AND status = 'active' ORDER BY id DESC LIMIT 1`);
    const res = await call("POST", `/api/admin/offers/${seeded.id}/retire`, { updatedAt: seeded.updatedAt });
    expect(res.statusCode, res.body).toBe(200);
    const legacy = await page(`/affiliate-offers/details/offerId/${seeded.legacy_id}`);
    expect(legacy.statusCode).toBe(301);
    expect((await page(legacy.headers.location as string)).statusCode).toBe(410);
    expect((await page(`/offer/legacy/${seeded.legacy_id}`)).statusCode).toBe(410);
    expect((await page(`/api/offers/legacy/${seeded.legacy_id}`)).statusCode).toBe(410);
    // /compare leaves it out rather than showing a retired offer.
    const compare = await page(`/compare?ids=${seeded.id}`);
    expect(compare.statusCode).toBe(200);
    expect(compare.body).not.toContain(`/offer/${seeded.id}/`);
  });
});
