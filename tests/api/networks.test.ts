// Networks API (docs/product.md §3, §4, §7) and the network pages' addresses, over the real app.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { hashIp } from "#core/privacy.ts";
import { JOIN_RATE_LIMIT } from "#core/networks/networks.ts";
import { TOO_MANY_REQUESTS } from "#core/rate-limit/limiter.ts";
import type { SessionUser } from "#contracts/auth.ts";
import type { NetworkSummary } from "#contracts/networks.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { expectEvery } from "../helpers/assertions.ts";

let t: TestApp;
const SITE = "offeratlas";
const SISTER = "callatlas";

beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 30, offers: 400, trafficSources: 4 } });
  // The seed lists some networks on a sister site too; make that site known.
  await t.db.query(sql`INSERT INTO sites (id, name) VALUES (${SISTER}, 'CallAtlas') ON CONFLICT DO NOTHING`);
});
afterAll(() => t?.close());

const get = async (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });
const networksOf = async (url: string): Promise<NetworkSummary[]> => {
  const res = await get(url);
  expect(res.statusCode).toBe(200);
  return res.json().networks;
};

async function signIn(remoteAddress = "10.1.0.1") {
  const email = `u${crypto.randomBytes(4).toString("hex")}@example.com`;
  const password = "Plenty-of-Entropy-2009!";
  const reg = await t.app.inject({
    method: "POST",
    url: "/api/auth/register/",
    remoteAddress,
    payload: { name: "Jane Joiner", email, password, confirmPassword: password },
  });
  expect(reg.statusCode).toBe(201);
  const login = await t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    remoteAddress,
    payload: { email, password },
  });
  expect(login.statusCode).toBe(200);
  return login.json<{ token: string; user: SessionUser }>();
}

describe("GET /api/networks", () => {
  it("lists every network listed on the site with the spec's fields and the site's property copied up", async () => {
    const networks = await networksOf(`/api/networks?site=${SITE}`);
    const [{ n }] = await t.db.query<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM networks WHERE EXISTS (SELECT 1 FROM network_properties p WHERE p.network_id = networks.id AND p.identifier = ${SITE})`);
    expect(networks).toHaveLength(n);
    for (const net of networks) {
      expect(net).toMatchObject({
        id: expect.any(Number),
        name: expect.any(String),
        slug: expect.any(String),
        avgRating: expect.any(Number),
        offerCount: expect.any(Number),
        featured: expect.any(Boolean),
      });
      const own = net.properties.find((p) => p.identifier === SITE);
      expect(own).toBeDefined();
      expect(net.joiningLink).toBe(own!.joiningLink);
      expect(net.paidAccount).toBe(own!.paidAccount);
      expect(net.offerCount).toBe(own!.offerCount);
      for (const p of net.properties)
        expect(Object.keys(p).sort()).toEqual(["identifier", "joiningLink", "offerCount", "paidAccount"]);
    }
    // Unreviewed networks rate 0.
    expectEvery(networks, (x) => x.avgRating === 0 && x.reviewCount === 0, "networks");
  });

  it("shuffles on each load, always the same set", async () => {
    const a = (await networksOf("/api/networks")).map((x) => x.id);
    const orders = new Set<string>([a.join()]);
    for (let i = 0; i < 3; i++) {
      const b = (await networksOf("/api/networks")).map((x) => x.id);
      expect([...b].sort((x, y) => x - y)).toEqual([...a].sort((x, y) => x - y));
      orders.add(b.join());
    }
    expect(orders.size).toBeGreaterThan(1);
  });

  it("answers only featured networks with featured=true", async () => {
    const featured = await networksOf("/api/networks?featured=true");
    const [{ n }] = await t.db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM networks WHERE featured`);
    expect(n).toBeGreaterThan(0);
    expect(featured).toHaveLength(n);
    expect(featured.every((x) => x.featured)).toBe(true);
  });

  it("gives the name-sorted list: only networks with offers, by lowercase name", async () => {
    const sorted = await networksOf("/api/networks?sort=name");
    const all = await networksOf("/api/networks");
    const withOffers = all.filter((x) => x.offerCount > 0);
    expect(withOffers.length).toBeLessThan(all.length); // the seed has networks without offers
    expect(sorted.map((x) => x.id)).toEqual(
      [...withOffers].sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1)).map((x) => x.id),
    );
  });

  it("filters by a name search", async () => {
    const [first] = await networksOf("/api/networks");
    const word = first.name.split(" ")[0].toLowerCase();
    const found = await networksOf(`/api/networks?search=${encodeURIComponent(word.toUpperCase())}`);
    expect(found.map((x) => x.id)).toContain(first.id);
    expect(found.every((x) => x.name.toLowerCase().includes(word))).toBe(true);
    expect(await networksOf("/api/networks?search=%25%25")).toEqual([]);
  });

  it("copies the property of the requesting site, and lists only that site's networks", async () => {
    const sister = await networksOf(`/api/networks?site=${SISTER}`);
    expect(sister.length).toBeGreaterThan(0);
    for (const net of sister) {
      const own = net.properties.find((p) => p.identifier === SISTER)!;
      expect(net.joiningLink).toBe(own.joiningLink);
      expect(net.joiningLink).toContain(`ref=${SISTER}`);
    }
    const viaHeader = (await get("/api/networks", { "x-site": SISTER })).json<{ networks: NetworkSummary[] }>()
      .networks;
    expect(viaHeader).toHaveLength(sister.length);
  });

  it("refuses an unknown site", async () => {
    const res = await get("/api/networks?site=nowhere");
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: "Unknown site" });
  });
});

describe("top and random paid networks", () => {
  it("ranks top networks by trust score", async () => {
    const top = await networksOf(`/api/top-networks?site=${SITE}`);
    expect(top.length).toBeGreaterThan(0);
    expect(top.length).toBeLessThanOrEqual(10);
    for (let i = 1; i < top.length; i++) expect(top[i - 1].trustScore).toBeGreaterThanOrEqual(top[i].trustScore);
  });

  it("answers paid networks of the site only, in random order", async () => {
    const paid = await networksOf(`/api/random-paid-networks?site=${SITE}`);
    const [{ n }] = await t.db.query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM network_properties WHERE identifier = ${SITE} AND paid_account`,
    );
    expect(paid.length).toBe(Math.min(n, 10));
    expectEvery(paid, (x) => x.paidAccount, "paid networks");
  });
});

describe("network detail lookups", () => {
  it("finds a network by id and slug, by slug alone, and by its old-site id", async () => {
    const [row] = await t.db.query<{ id: number; slug: string; legacy_id: number }>(
      sql`SELECT id, slug, legacy_id FROM networks ORDER BY id LIMIT 1`,
    );
    const byId = await get(`/api/networks/${row.id}/${row.slug}`);
    expect(byId.statusCode).toBe(200);
    expect(byId.json().network).toMatchObject({ id: row.id, slug: row.slug, description: expect.any(String) });
    // A stale slug still finds the network (pages redirect to the canonical one).
    expect((await get(`/api/networks/${row.id}/old-name`)).json().network.id).toBe(row.id);
    expect((await get(`/api/networks/${row.slug}`)).json().network.id).toBe(row.id);
    const legacy = await get(`/api/networks/legacy/${row.legacy_id}/`);
    expect(legacy.statusCode).toBe(200);
    expect(legacy.json().network.id).toBe(row.id);
  });

  it("answers 404 { message } for unknown ids, slugs and legacy ids", async () => {
    for (const url of [
      "/api/networks/999999/x",
      "/api/networks/abc/x",
      "/api/networks/no-such-network",
      "/api/networks/legacy/999999/",
      "/api/networks/legacy/abc",
      "/api/networks/99999999999999999999/x",
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ message: "Network not found" });
    }
  });
});

describe("GET /api/network-options", () => {
  it("answers the form's option lists, verticals from the categories", async () => {
    const res = await get("/api/network-options");
    expect(res.statusCode).toBe(200);
    const body = res.json();
    for (const key of ["trackingPlatforms", "paymentFrequencies", "paymentMethods", "commissionTypes", "verticals"]) {
      expect(Array.isArray(body[key]), key).toBe(true);
      expect(body[key].length, key).toBeGreaterThan(0);
      expect(
        body[key].every((v: unknown) => typeof v === "string"),
        key,
      ).toBe(true);
    }
    const cats = await t.db.query<{ name: string }>(sql`SELECT name FROM categories ORDER BY sort_order, name`);
    expect(body.verticals).toEqual(cats.map((c) => c.name));
    expect(body.paymentMethods).toContain("PayPal");
  });
});

describe("GET /api/networks/{id}/join", () => {
  it("records a join click with site, time, hashed IP and user agent, and answers the joining link", async () => {
    const [net] = await networksOf("/api/networks");
    const before = Date.now() - 1000;
    const res = await t.app.inject({
      url: `/api/networks/${net.id}/join?site=${SITE}`,
      remoteAddress: "203.0.113.9",
      headers: { "user-agent": "JoinTest/1.0" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ joiningLink: net.joiningLink });
    const clicks = await t.db.query<{
      site_id: string;
      user_id: number | null;
      ip_hash: string;
      user_agent: string;
      created_at: Date;
    }>(sql`SELECT site_id, user_id, ip_hash, user_agent, created_at FROM join_clicks WHERE network_id = ${net.id}`);
    expect(clicks).toHaveLength(1);
    expect(clicks[0]).toMatchObject({ site_id: SITE, user_id: null, user_agent: "JoinTest/1.0" });
    expect(clicks[0].ip_hash).toBe(hashIp("203.0.113.9", t.config.ipHashSalt));
    expect(clicks[0].ip_hash).not.toContain("203.0.113.9");
    expect(clicks[0].created_at.getTime()).toBeGreaterThan(before);
  });

  it("records the signed-in user, and the requesting site's link", async () => {
    const { token, user } = await signIn("10.1.0.2");
    const [net] = await networksOf(`/api/networks?site=${SISTER}`);
    const res = await get(`/api/networks/${net.id}/join?site=${SISTER}`, { authorization: `Bearer ${token}` });
    expect(res.json().joiningLink).toContain(`ref=${SISTER}`);
    const [click] = await t.db.query<{ user_id: number; site_id: string }>(
      sql`SELECT user_id, site_id FROM join_clicks WHERE network_id = ${net.id} ORDER BY id DESC LIMIT 1`,
    );
    expect(click).toEqual({ user_id: user.id, site_id: SISTER });
  });

  it("answers 404 for an unknown network and records nothing", async () => {
    const [{ n: before }] = await t.db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM join_clicks`);
    expect((await get("/api/networks/999999/join")).statusCode).toBe(404);
    expect((await get("/api/networks/nope/join")).statusCode).toBe(404);
    const [{ n: after }] = await t.db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM join_clicks`);
    expect(after).toBe(before);
  });

  it("records one click per visitor and network an hour, while every call answers the link", async () => {
    const net = (await networksOf("/api/networks")).find((n) => n.joiningLink)!;
    const clicks = async (ip: string) =>
      (
        await t.db.query<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM join_clicks WHERE network_id = ${net.id} AND ip_hash = ${hashIp(ip, t.config.ipHashSalt)}`)
      )[0].n;
    const join = (ip: string, headers: Record<string, string> = {}) =>
      t.app.inject({ url: `/api/networks/${net.id}/join?site=${SITE}`, remoteAddress: ip, headers });
    const answers = await Promise.all(Array.from({ length: 50 }, () => join("198.51.100.7")));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    expect(answers.every((r) => r.json().joiningLink === net.joiningLink)).toBe(true);
    expect(await clicks("198.51.100.7")).toBe(1);
    // Another visitor's click counts; a signed-in user is one visitor wherever they click from.
    expect((await join("198.51.100.8")).statusCode).toBe(200);
    expect(await clicks("198.51.100.8")).toBe(1);
    const { token, user } = await signIn("10.1.0.4");
    for (const ip of ["198.51.100.9", "198.51.100.10"])
      expect((await join(ip, { authorization: `Bearer ${token}` })).statusCode).toBe(200);
    const [{ n: mine }] = await t.db.query<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM join_clicks WHERE network_id = ${net.id} AND user_id = ${user.id}`);
    expect(mine).toBe(1);
    // An hour later the same visitor's click is recorded again.
    await t.db.query(
      sql`UPDATE rate_limits SET reset_at = now() - interval '1 second' WHERE key LIKE ${`join:seen:${net.id}:%`}`,
    );
    expect((await join("198.51.100.7")).statusCode).toBe(200);
    expect(await clicks("198.51.100.7")).toBe(2);
  });

  it("answers 429 { message } with Retry-After to an address past the join rate limit, and records nothing then", async () => {
    const nets = (await networksOf("/api/networks")).filter((n) => n.joiningLink);
    const ip = "198.51.100.20";
    const join = (id: number) => t.app.inject({ url: `/api/networks/${id}/join?site=${SITE}`, remoteAddress: ip });
    for (let i = 0; i < JOIN_RATE_LIMIT.limit; i++) expect((await join(nets[i % nets.length].id)).statusCode).toBe(200);
    const [{ n: before }] = await t.db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM join_clicks`);
    const flood = await Promise.all(Array.from({ length: 20 }, (_, i) => join(nets[i % nets.length].id)));
    for (const res of flood) {
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual({ message: TOO_MANY_REQUESTS });
      expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
      expect(Number(res.headers["retry-after"])).toBeLessThanOrEqual(JOIN_RATE_LIMIT.windowSeconds);
    }
    const [{ n: after }] = await t.db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM join_clicks`);
    expect(after).toBe(before);
    // Other addresses are not affected.
    expect(
      (await t.app.inject({ url: `/api/networks/${nets[0].id}/join?site=${SITE}`, remoteAddress: "198.51.100.21" }))
        .statusCode,
    ).toBe(200);
  });
});

describe("network page addresses", () => {
  it("301s a wrong or missing slug to the canonical page, 404s an unknown id", async () => {
    const [row] = await t.db.query<{ id: number; slug: string; legacy_id: number }>(
      sql`SELECT id, slug, legacy_id FROM networks ORDER BY id LIMIT 1`,
    );
    const canonical = `/network/${row.id}/${row.slug}`;
    expect((await get(canonical)).statusCode).toBe(200);
    for (const url of [`/network/${row.id}`, `/network/${row.id}/wrong-slug`]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(301);
      expect(res.headers.location).toBe(canonical);
    }
    expect((await get("/network/999999/x")).statusCode).toBe(404);
    const bare = await get("/network");
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe("/networks");
  });

  it("301s old-site addresses (old id or new id) to the canonical page", async () => {
    const [row] = await t.db.query<{ id: number; slug: string; legacy_id: number }>(
      sql`SELECT id, slug, legacy_id FROM networks ORDER BY id LIMIT 1`,
    );
    const canonical = `/network/${row.id}/${row.slug}`;
    for (const url of [
      `/affiliate-networks/profile/networkId/${row.legacy_id}/old-slug`,
      `/affiliate-networks/profile/networkId/${row.id}`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(301);
      expect(res.headers.location).toBe(canonical);
    }
    const none = await get("/affiliate-networks/profile/networkId");
    expect(none.statusCode).toBe(301);
    expect(none.headers.location).toBe("/networks");
    expect((await get("/affiliate-networks/profile/networkId/999999/x")).statusCode).toBe(404);
  });

  it("renders the network page: details, site listing, offers, reviews, a login prompt and Organization structured data", async () => {
    const [row] = await t.db.query<{ id: number; slug: string; name: string }>(sql`
      SELECT n.id, n.slug, n.name FROM networks n WHERE n.offer_count > 0 ORDER BY n.id DESC LIMIT 1`);
    const page = `/network/${row.id}/${row.slug}`;
    const before = await get(page);
    expect(before.body).toContain('data-testid="review-login-prompt"');
    expect(before.body).toContain('data-testid="offers-table"');
    expect(before.body).toContain("How is this computed?");
    // No rating yet: no AggregateRating, which search engines would reject.
    expect(before.body).not.toContain("AggregateRating");
    const { token } = await signIn("10.1.0.3");
    await t.app.inject({
      method: "POST",
      url: `/api/networks/${row.id}/reviews`,
      headers: { authorization: `Bearer ${token}` },
      payload: { site: SITE, rating: 4, comment: "Solid offers and weekly payments, recommended." },
    });
    const after = await get(page);
    const ld = [...after.body.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map((m) =>
      JSON.parse(m[1]),
    );
    const org = ld.find((x) => x["@type"] === "Organization");
    expect(org).toMatchObject({
      "@context": "https://schema.org",
      name: row.name,
      aggregateRating: { "@type": "AggregateRating", ratingValue: 4, reviewCount: 1, bestRating: 5 },
    });
    expect(org.review[0]).toMatchObject({ "@type": "Review", reviewRating: { ratingValue: 4 } });
  });

  it("renders /networks with the spec's title, a page of networks and Join links", async () => {
    const res = await get("/networks?search=&page=2");
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("Enter a search term below to find networks");
    expect(res.body).toContain("Clear Searches");
    const rows = [...res.body.matchAll(/data-network-id="(\d+)"/g)];
    expect(rows.length).toBe(10); // 30 networks, 20 a page
    expect(res.body).toMatch(/rel="noopener sponsored"/);
  });
});
