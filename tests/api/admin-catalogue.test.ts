// The console's catalogue: networks and traffic sources are created, edited,
// retired and restored, verticals renamed and merged; a stale edit answers 409,
// every change writes its audit row, and a retired listing leaves the search,
// the sitemap and the listings at once while its old links answer 410.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { AUTH_COOKIE } from "#core/auth/sessions.ts";
import type { AdminList } from "#contracts/admin.ts";
import type { AdminNetwork, AdminTrafficSource, AdminVertical } from "#contracts/catalogue.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";

let t: TestApp;
let admin: Awaited<ReturnType<typeof signInWithRoles>>;
let moderator: Awaited<ReturnType<typeof signInWithRoles>>;
let plain: Awaited<ReturnType<typeof signInWithRoles>>;

beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 6, offers: 120, trafficSources: 4 } });
  [admin, moderator, plain] = [
    await signInWithRoles(t, ["admin"]),
    await signInWithRoles(t, ["moderator"]),
    await signInWithRoles(t, []),
  ];
});
afterAll(() => t?.close());

type Headers = Record<string, string>;
const get = (url: string, headers: Headers = admin.headers) => t.app.inject({ url, headers });
const post = (url: string, payload?: object, headers: Headers = admin.headers) =>
  t.app.inject({ method: "POST", url, headers, ...(payload ? { payload } : {}) });
const put = (url: string, payload: object, headers: Headers = admin.headers) =>
  t.app.inject({ method: "PUT", url, headers, payload });

const auditRows = (action: string, subjectId: number) =>
  t.db.query<{ before: Record<string, unknown> | null; after: Record<string, unknown>; actor_id: number }>(
    sql`SELECT before, after, actor_id FROM audit_log WHERE action = ${action} AND subject_id = ${subjectId} ORDER BY id`,
  );

describe("who may use /api/admin catalogue routes", () => {
  const routes: [string, string][] = [
    ["GET", "/api/admin/networks"],
    ["POST", "/api/admin/networks"],
    ["GET", "/api/admin/networks/1"],
    ["PUT", "/api/admin/networks/1"],
    ["POST", "/api/admin/networks/1/retire"],
    ["POST", "/api/admin/networks/1/restore"],
    ["GET", "/api/admin/traffic-sources"],
    ["POST", "/api/admin/traffic-sources"],
    ["GET", "/api/admin/traffic-sources/1"],
    ["PUT", "/api/admin/traffic-sources/1"],
    ["POST", "/api/admin/traffic-sources/1/retire"],
    ["POST", "/api/admin/traffic-sources/1/restore"],
    ["GET", "/api/admin/verticals"],
    ["PUT", "/api/admin/verticals/1"],
    ["POST", "/api/admin/verticals/1/merge"],
  ];

  it("answers 401 without a session, and 403 to a plain user and to a moderator", async () => {
    for (const [method, url] of routes) {
      const payload = method === "GET" ? undefined : {};
      const anonymous = await t.app.inject({ method: method as "GET" | "POST" | "PUT", url, payload });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      for (const who of [plain, moderator]) {
        const res = await t.app.inject({
          method: method as "GET" | "POST" | "PUT",
          url,
          payload,
          headers: who.headers,
        });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json()).toEqual({ message: expect.any(String) });
      }
    }
    const [{ n }] = await t.db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM audit_log`);
    expect(n).toBe(0);
  });
});

describe("who may open the console's catalogue pages", () => {
  const cookieOf = (who: { headers: { authorization: string } }) =>
    `${AUTH_COOKIE}=${who.headers.authorization.replace("Bearer ", "")}`;

  it("answers 401 without a session, 403 to a moderator, and the page to an admin; actions too", async () => {
    const [{ network }] = await t.db.query<{ network: number }>(sql`SELECT min(id)::int AS network FROM networks`);
    const [{ source }] = await t.db.query<{ source: number }>(sql`SELECT min(id)::int AS source FROM traffic_sources`);
    const [{ vertical }] = await t.db.query<{ vertical: number }>(sql`SELECT min(id)::int AS vertical FROM categories`);
    const pages = [
      "/admin/networks",
      "/admin/networks/new",
      `/admin/networks/${network}`,
      "/admin/traffic-sources",
      "/admin/traffic-sources/new",
      `/admin/traffic-sources/${source}`,
      "/admin/verticals",
      `/admin/verticals/${vertical}`,
    ];
    for (const url of pages) {
      expect((await t.app.inject(url)).statusCode, url).toBe(401);
      expect((await t.app.inject({ url, headers: { cookie: cookieOf(moderator) } })).statusCode, url).toBe(403);
      expect((await t.app.inject({ url, headers: { cookie: cookieOf(admin) } })).statusCode, url).toBe(200);
    }
    for (const url of pages.filter((p) => /\/(new|\d+)$/.test(p))) {
      const res = await t.app.inject({
        method: "POST",
        url,
        headers: { cookie: cookieOf(moderator), "content-type": "application/x-www-form-urlencoded" },
        payload: "intent=save&name=Hijack",
      });
      expect(res.statusCode, url).toBe(403);
    }
    expect(
      (await t.app.inject({ url: "/admin/networks/99999999", headers: { cookie: cookieOf(admin) } })).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ url: "/admin/networks?status=gone", headers: { cookie: cookieOf(admin) } })).statusCode,
    ).toBe(400);
  });
});

describe("networks", () => {
  let created: AdminNetwork;

  it("lists every network, searched by name, filtered by status, sorted and paged on the server", async () => {
    const res = await get("/api/admin/networks?sort=name&dir=asc");
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<AdminList<AdminNetwork>>();
    const [{ n }] = await t.db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM networks`);
    expect(page).toMatchObject({ total: n, page: 1, pageSize: 50 });
    const names = page.items.map((i) => i.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    const desc = (await get("/api/admin/networks?sort=name&dir=desc")).json<AdminList<AdminNetwork>>();
    expect(desc.items[0].id).toBe(page.items.at(-1)!.id);
    const wanted = page.items[2];
    const found = (await get(`/api/admin/networks?search=${encodeURIComponent(wanted.name.toUpperCase())}`)).json<
      AdminList<AdminNetwork>
    >();
    expect(found.items.map((i) => i.id)).toContain(wanted.id);
    expect(found.items.every((i) => i.name.toLowerCase().includes(wanted.name.toLowerCase()))).toBe(true);
    expect((await get("/api/admin/networks?status=retired")).json<AdminList<AdminNetwork>>().total).toBe(0);
    for (const bad of ["?status=gone", "?page=abc", "?page=0", `?search=${"x".repeat(101)}`])
      expect((await get(`/api/admin/networks${bad}`)).statusCode, bad).toBe(400);
    // An unknown sort falls back to the default rather than reaching the SQL.
    expect((await get("/api/admin/networks?sort=name;DROP TABLE networks")).statusCode).toBe(200);
  });

  it("refuses bad input with the field's message", async () => {
    const cases: [object, RegExp][] = [
      [{}, /Name cannot be blank/],
      [{ name: "  " }, /Name cannot be blank/],
      [{ name: "Acme", website: "not a url" }, /not a valid url/],
      [{ name: "Acme", slug: "Bad Slug!" }, /Slug can only contain/],
      [{ name: "Acme", minimumPayment: -5 }, /Minimum payment must be greater than or equal to 0/],
      [{ name: "Acme", minimumPayment: "12.345" }, /Minimum payment must be an amount/],
      [{ name: "Acme", featured: "maybe" }, /Featured must be true or false/],
      [{ name: "Acme", properties: [{ identifier: "nowhere" }] }, /There is no site named nowhere/],
      [{ name: "Acme", properties: [{ identifier: "offeratlas", displayOrder: 0 }] }, /Order must be greater/],
      [{ name: "Acme", paymentMethods: [1, 2] }, /Payment methods must be a list of text/],
    ];
    for (const [payload, message] of cases) {
      const res = await post("/api/admin/networks", payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    const taken = (await get("/api/admin/networks")).json<AdminList<AdminNetwork>>().items[0];
    const clash = await post("/api/admin/networks", { name: "Another", slug: taken.slug });
    expect(clash.statusCode).toBe(400);
    expect(clash.json().message).toMatch(/already used by another network/);
  });

  it("creates a network with every field and its listing on the site, with an audit row", async () => {
    const res = await post("/api/admin/networks", {
      name: "Zenith Leads",
      description: "Lead generation offers in finance.",
      logoUrl: "https://cdn.example.com/zenith.png",
      website: "https://zenith.example.com",
      featured: true,
      paymentTerms: "Net 15",
      paymentMethods: "PayPal, Wire",
      minimumPayment: "50.00",
      trackingPlatform: "Everflow",
      commissionTypes: ["CPL", "CPA"],
      properties: [
        {
          identifier: "offeratlas",
          joiningLink: "https://zenith.example.com/join",
          paidAccount: true,
          displayOrder: 1,
        },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    created = res.json<AdminNetwork>();
    expect(created).toMatchObject({
      name: "Zenith Leads",
      slug: "zenith-leads",
      featured: true,
      paymentMethods: ["PayPal", "Wire"],
      minimumPayment: 50,
      commissionTypes: ["CPL", "CPA"],
      status: "active",
      retiredAt: null,
      properties: [
        {
          identifier: "offeratlas",
          joiningLink: "https://zenith.example.com/join",
          paidAccount: true,
          displayOrder: 1,
          offerCount: 0,
        },
      ],
    });
    const [audit] = await auditRows("network.create", created.id);
    expect(audit).toMatchObject({
      before: null,
      after: { name: "Zenith Leads", featured: true },
      actor_id: admin.user.id,
    });
    // Listed at once: public search, its page, and pinned first in the listing.
    const search = await get("/api/networks?search=zenith");
    expect(search.json().networks.map((n: { id: number }) => n.id)).toEqual([created.id]);
    const listing = (await get("/api/networks")).json().networks as { id: number; paidAccount: boolean }[];
    expect(listing[0]).toMatchObject({ id: created.id, paidAccount: true });
    expect((await get(`/api/networks/${created.id}/zenith-leads`)).statusCode).toBe(200);
    expect((await get(`/api/admin/networks/${created.id}`)).json()).toEqual(created);
  });

  it("saves an edit over the version it was made from, and answers 409 to a stale one", async () => {
    const first = await put(`/api/admin/networks/${created.id}`, {
      updatedAt: created.updatedAt,
      name: "Zenith Lead Partners",
      featured: false,
      website: "",
      // A form may post a list field more than once, each a typed line: blanks are dropped.
      paymentMethods: ["Payoneer, Wire", ""],
      properties: [{ identifier: "offeratlas", paidAccount: false }],
    });
    expect(first.statusCode, first.body).toBe(200);
    const saved = first.json<AdminNetwork>();
    expect(saved).toMatchObject({
      name: "Zenith Lead Partners",
      slug: "zenith-leads", // not sent: kept
      featured: false,
      website: null, // sent empty: cleared
      paymentTerms: "Net 15", // not sent: kept
      paymentMethods: ["Payoneer", "Wire"],
      properties: [{ identifier: "offeratlas", joiningLink: null, paidAccount: false, displayOrder: null }],
    });
    expect(saved.updatedAt).not.toBe(created.updatedAt);

    const stale = await put(`/api/admin/networks/${created.id}`, { updatedAt: created.updatedAt, name: "Lost" });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toMatch(/Someone else changed this network/);
    const [row] = await t.db.query<{ name: string }>(sql`SELECT name FROM networks WHERE id = ${created.id}`);
    expect(row.name).toBe("Zenith Lead Partners");

    const [audit] = await auditRows("network.update", created.id);
    expect(audit.before).toMatchObject({ name: "Zenith Leads", featured: true, website: "https://zenith.example.com" });
    expect(audit.after).toMatchObject({ name: "Zenith Lead Partners", featured: false, website: null });

    expect((await put(`/api/admin/networks/${created.id}`, { name: "No version" })).statusCode).toBe(400);
    expect((await put("/api/admin/networks/999999999", { updatedAt: saved.updatedAt })).statusCode).toBe(404);
    expect((await get("/api/admin/networks/abc")).statusCode).toBe(404);
    created = saved;
  });

  it("retires a network: gone from search, listings and the sitemap at once; its page and API answer 410", async () => {
    const page = await t.app.inject(`/network/${created.id}/${created.slug}`);
    expect(page.statusCode).toBe(200);
    const sitemapBefore = (await t.app.inject("/sitemaps/networks/1.xml")).body;
    expect(sitemapBefore).toContain(`/network/${created.id}/`);

    const stale = await post(`/api/admin/networks/${created.id}/retire`, { updatedAt: "2001-01-01T00:00:00.000000Z" });
    expect(stale.statusCode).toBe(409);
    const res = await post(`/api/admin/networks/${created.id}/retire`, { updatedAt: created.updatedAt });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<AdminNetwork>()).toMatchObject({ status: "retired", retiredAt: expect.any(String) });
    expect((await post(`/api/admin/networks/${created.id}/retire`)).statusCode).toBe(409);

    expect((await get("/api/networks?search=zenith")).json().networks).toEqual([]);
    const listed = (await get("/api/networks")).json().networks as { id: number }[];
    expect(listed.map((n) => n.id)).not.toContain(created.id);
    expect((await t.app.inject("/sitemaps/networks/1.xml")).body).not.toContain(`/network/${created.id}/`);

    for (const url of [
      `/api/networks/${created.id}/${created.slug}`,
      `/api/networks/${created.slug}`,
      `/api/networks/${created.id}`,
    ]) {
      const gone = await t.app.inject(url);
      expect(gone.statusCode, url).toBe(410);
      expect(gone.json()).toEqual({ message: "Zenith Lead Partners is no longer listed" });
    }
    const html = await t.app.inject(`/network/${created.id}/${created.slug}`);
    expect(html.statusCode).toBe(410);
    expect(html.body).toContain("Zenith Lead Partners is no longer listed");
    expect(html.body).toContain('data-testid="no-longer-listed"');
    expect((await t.app.inject("/network/999999/nothing")).statusCode).toBe(404);
    // The console still lists it, under its status.
    const retired = (await get("/api/admin/networks?status=retired")).json<AdminList<AdminNetwork>>();
    expect(retired.items.map((i) => i.id)).toEqual([created.id]);
    const audit = await auditRows("network.retire", created.id);
    expect(audit).toEqual([
      { before: { status: "active" }, after: { status: "retired", offers: 0 }, actor_id: admin.user.id },
    ]);
  });

  it("answers 410 through an old-site address too (networks and traffic sources)", async () => {
    const [{ id, legacy_id }] = await t.db.query<{ id: number; legacy_id: number }>(
      sql`SELECT id, legacy_id FROM networks WHERE legacy_id IS NOT NULL AND status = 'active' ORDER BY id LIMIT 1`,
    );
    await t.db.query(sql`UPDATE networks SET status = 'retired' WHERE id = ${id}`);
    try {
      expect((await t.app.inject(`/api/networks/legacy/${legacy_id}`)).statusCode).toBe(410);
      const legacy = await t.app.inject(`/affiliate-networks/profile/networkId/${legacy_id}/old-name`);
      expect(legacy.statusCode).toBe(301);
      expect((await t.app.inject(legacy.headers.location as string)).statusCode).toBe(410);
    } finally {
      await t.db.query(sql`UPDATE networks SET status = 'active' WHERE id = ${id}`);
    }
    const [source] = await t.db.query<{ id: number; legacy_id: number }>(
      sql`SELECT id, legacy_id FROM traffic_sources WHERE legacy_id IS NOT NULL ORDER BY id LIMIT 1`,
    );
    await t.db.query(sql`UPDATE traffic_sources SET status = 'retired' WHERE id = ${source.id}`);
    try {
      expect((await t.app.inject(`/api/traffic-sources/legacy/${source.legacy_id}`)).statusCode).toBe(410);
      for (const old of [`/traffic/details/id/${source.legacy_id}`, `/traffic/details/id/${source.id}`]) {
        const legacy = await t.app.inject(old);
        expect(legacy.statusCode, old).toBe(301);
        expect(legacy.headers.location).toBe(`/traffic-sources/details/${source.id}`);
      }
      expect((await t.app.inject(`/traffic-sources/details/${source.id}`)).statusCode).toBe(410);
    } finally {
      await t.db.query(sql`UPDATE traffic_sources SET status = 'active' WHERE id = ${source.id}`);
    }
  });

  it("takes a retired network out of the cached offer filters at once, and back on restore", async () => {
    const [withOffers] = await t.db.query<{ id: number }>(
      sql`SELECT id FROM networks WHERE status = 'active' AND offer_count > 0 ORDER BY id LIMIT 1`,
    );
    const filterIds = async () =>
      ((await get("/api/offer-filters")).json().networks as { id: number }[]).map((n) => n.id);
    expect(await filterIds()).toContain(withOffers.id);
    expect((await post(`/api/admin/networks/${withOffers.id}/retire`)).statusCode).toBe(200);
    expect(await filterIds()).not.toContain(withOffers.id);
    expect((await get("/api/top-networks")).json().networks.map((n: { id: number }) => n.id)).not.toContain(
      withOffers.id,
    );
    expect((await post(`/api/admin/networks/${withOffers.id}/restore`)).statusCode).toBe(200);
    expect(await filterIds()).toContain(withOffers.id);
  });

  it("takes a retired network's offers out of search and brings back exactly those on restore", async () => {
    const [network] = await t.db.query<{ id: number; name: string }>(
      sql`SELECT id, name FROM networks WHERE status = 'active' AND offer_count > 1 ORDER BY id DESC LIMIT 1`,
    );
    const ofNetwork = async () =>
      (await post("/api/offers/search", { networks: [network.id], page: 1 })).json<{ total: number }>().total;
    const listed = await ofNetwork();
    expect(listed).toBeGreaterThan(1);
    // One offer retired on its own before the network goes.
    const [alone] = await t.db.query<{ id: number }>(
      sql`SELECT id FROM offers WHERE network_id = ${network.id} AND status = 'active' ORDER BY id LIMIT 1`,
    );
    const own = (await get(`/api/admin/offers/${alone.id}`)).json<{ updatedAt: string }>();
    expect((await post(`/api/admin/offers/${alone.id}/retire`, { updatedAt: own.updatedAt })).statusCode).toBe(200);
    expect(await ofNetwork()).toBe(listed - 1);

    expect((await post(`/api/admin/networks/${network.id}/retire`)).statusCode).toBe(200);
    expect(await ofNetwork()).toBe(0);
    const byText = (await post("/api/offers/search", { query: network.name, page: 1 })).json<{
      offers: { networkId: number }[];
    }>();
    expect(byText.offers.filter((o) => o.networkId === network.id)).toEqual([]);
    expect((await auditRows("network.retire", network.id)).at(-1)?.after).toEqual({
      status: "retired",
      offers: listed - 1,
    });

    expect((await post(`/api/admin/networks/${network.id}/restore`)).statusCode).toBe(200);
    expect(await ofNetwork()).toBe(listed - 1);
    const [still] = await t.db.query<{ status: string }>(sql`SELECT status FROM offers WHERE id = ${alone.id}`);
    expect(still.status).toBe("retired");
  });

  it("renaming a network makes its offers findable by the new name", async () => {
    const [withOffers] = await t.db.query<{ id: number }>(
      sql`SELECT id FROM networks WHERE status = 'active' AND offer_count > 0 ORDER BY id DESC LIMIT 1`,
    );
    const current = (await get(`/api/admin/networks/${withOffers.id}`)).json<AdminNetwork>();
    const search = async (query: string) =>
      (await post("/api/offers/search", { query, page: 1 })).json<{ offers: { networkId: number }[] }>().offers;
    expect(await search("quokkaverse")).toEqual([]);
    const res = await put(`/api/admin/networks/${withOffers.id}`, {
      updatedAt: current.updatedAt,
      name: "Quokkaverse Media",
    });
    expect(res.statusCode, res.body).toBe(200);
    const found = await search("quokkaverse");
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((o) => o.networkId === withOffers.id)).toBe(true);
  });

  it("restores a retired network to the listings", async () => {
    expect((await post(`/api/admin/networks/${created.id + 100000}/restore`)).statusCode).toBe(404);
    const res = await post(`/api/admin/networks/${created.id}/restore`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<AdminNetwork>()).toMatchObject({ status: "active", retiredAt: null });
    expect((await get("/api/networks?search=zenith")).json().networks).toHaveLength(1);
    expect((await post(`/api/admin/networks/${created.id}/restore`)).statusCode).toBe(409);
    expect(await auditRows("network.restore", created.id)).toHaveLength(1);
  });
});

describe("traffic sources", () => {
  let source: AdminTrafficSource;

  it("creates, validates and lists traffic sources", async () => {
    for (const [payload, message] of [
      [{}, /Name cannot be blank/],
      [{ name: "Pushy", geos: "US, XX" }, /XX is not a country code/],
      [{ name: "Pushy", geos: ["USA"] }, /Geos values must be at most 2 characters long/],
      [{ name: "Pushy", minimumDeposit: "lots" }, /Minimum deposit must be an amount/],
    ] as [object, RegExp][]) {
      const res = await post("/api/admin/traffic-sources", payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    const res = await post("/api/admin/traffic-sources", {
      name: "Pushy Native",
      website: "https://pushy.example.com",
      featured: true,
      adFormats: "Push, Native",
      pricingModels: ["CPC"],
      minimumDeposit: 100,
      geos: "us, de",
    });
    expect(res.statusCode, res.body).toBe(201);
    source = res.json<AdminTrafficSource>();
    expect(source).toMatchObject({
      slug: "pushy-native",
      adFormats: ["Push", "Native"],
      geos: ["US", "DE"],
      minimumDeposit: 100,
      status: "active",
    });
    expect(await auditRows("traffic_source.create", source.id)).toHaveLength(1);
    const list = (await get("/api/admin/traffic-sources?search=pushy")).json<AdminList<AdminTrafficSource>>();
    expect(list.items.map((i) => i.id)).toEqual([source.id]);
    const publicList = (await get("/api/traffic-sources?search=pushy")).json().trafficSources as { id: number }[];
    expect(publicList.map((s) => s.id)).toEqual([source.id]);
  });

  it("edits with a 409 for a stale version, retires with 410 pages, and restores", async () => {
    const edited = await put(`/api/admin/traffic-sources/${source.id}`, {
      updatedAt: source.updatedAt,
      name: "Pushy Native Ads",
      featured: false,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ name: "Pushy Native Ads", featured: false, geos: ["US", "DE"] });
    const stale = await put(`/api/admin/traffic-sources/${source.id}`, { updatedAt: source.updatedAt, name: "X" });
    expect(stale.statusCode).toBe(409);
    const [audit] = await auditRows("traffic_source.update", source.id);
    expect(audit).toMatchObject({ before: { name: "Pushy Native" }, after: { name: "Pushy Native Ads" } });

    expect((await post(`/api/admin/traffic-sources/${source.id}/retire`)).statusCode).toBe(200);
    expect((await get("/api/traffic-sources?search=pushy")).json().trafficSources).toEqual([]);
    expect((await t.app.inject("/sitemaps/traffic-sources/1.xml")).body).not.toContain(
      `/traffic-sources/details/${source.id}<`,
    );
    const api = await t.app.inject(`/api/traffic-sources/${source.id}`);
    expect(api.statusCode).toBe(410);
    expect(api.json()).toEqual({ message: "Pushy Native Ads is no longer listed" });
    const html = await t.app.inject(`/traffic-sources/details/${source.id}`);
    expect(html.statusCode).toBe(410);
    expect(html.body).toContain("Pushy Native Ads is no longer listed");

    expect((await post(`/api/admin/traffic-sources/${source.id}/restore`)).statusCode).toBe(200);
    expect((await t.app.inject(`/traffic-sources/details/${source.id}`)).statusCode).toBe(200);
    expect((await get(`/api/admin/traffic-sources/${source.id}`)).json()).toMatchObject({ status: "active" });
  });
});

describe("verticals", () => {
  const categoryIdsOf = async (offerId: number) =>
    (await t.db.query<{ category_ids: number[] }>(sql`SELECT category_ids FROM offers WHERE id = ${offerId}`))[0]
      .category_ids;

  it("lists verticals with their offer counts", async () => {
    const res = await get("/api/admin/verticals?sort=offerCount&dir=desc");
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<AdminList<AdminVertical>>();
    const [{ n }] = await t.db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM categories`);
    expect(page.total).toBe(n);
    const counts = page.items.map((v) => v.offerCount);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const [top] = page.items;
    const [{ c }] = await t.db.query<{ c: number }>(
      sql`SELECT count(*)::int AS c FROM offers WHERE ${top.id} = ANY(category_ids) AND status = 'active'`,
    );
    expect(top.offerCount).toBe(c);
  });

  it("renames a vertical, refusing a taken name and a stale version", async () => {
    const { items } = (await get("/api/admin/verticals?sort=name&dir=asc")).json<AdminList<AdminVertical>>();
    const [a, b] = items;
    const clash = await put(`/api/admin/verticals/${a.id}`, { updatedAt: a.updatedAt, name: b.name });
    expect(clash.statusCode).toBe(400);
    expect(clash.json().message).toMatch(/already/);
    expect((await put(`/api/admin/verticals/${a.id}`, { updatedAt: a.updatedAt, name: "" })).statusCode).toBe(400);
    const res = await put(`/api/admin/verticals/${a.id}`, { updatedAt: a.updatedAt, name: "Aardvark Offers" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<AdminVertical>()).toMatchObject({ name: "Aardvark Offers", slug: "aardvark-offers" });
    expect((await put(`/api/admin/verticals/${a.id}`, { updatedAt: a.updatedAt, name: "Other" })).statusCode).toBe(409);
    const names = (await get("/api/verticals")).json().categories.map((c: { name: string }) => c.name);
    expect(names).toContain("Aardvark Offers");
    expect(names).not.toContain(a.name);
    expect(await auditRows("vertical.rename", a.id)).toEqual([
      {
        before: { name: a.name, slug: a.slug, top: a.top },
        after: { name: "Aardvark Offers", slug: "aardvark-offers", top: a.top },
        actor_id: admin.user.id,
      },
    ]);
  });

  it("merges one vertical into another: offers move in one step, the merged one is gone, old filters do not fail", async () => {
    const { items } = (await get("/api/admin/verticals?sort=offerCount&dir=desc")).json<AdminList<AdminVertical>>();
    const [from, into] = items;
    expect(from.offerCount).toBeGreaterThan(0);
    const [both] = await t.db.query<{ id: number }>(
      sql`SELECT id FROM offers WHERE category_ids @> ARRAY[${from.id}, ${into.id}]::int[] LIMIT 1`,
    );
    const [onlyFrom] = await t.db.query<{ id: number }>(
      sql`SELECT id FROM offers WHERE ${from.id} = ANY(category_ids) AND NOT ${into.id} = ANY(category_ids) LIMIT 1`,
    );
    const [{ expected }] = await t.db.query<{ expected: number }>(sql`
      SELECT count(*)::int AS expected FROM offers
      WHERE status = 'active' AND (${from.id} = ANY(category_ids) OR ${into.id} = ANY(category_ids))`);

    // Cached filter lists are loaded first: the merge must make them forget the merged vertical.
    const cached = (await get("/api/offer-filters")).json().categories as { id: number }[];
    expect(cached.map((c) => c.id)).toContain(from.id);

    for (const [payload, status] of [
      [{}, 400],
      [{ intoId: from.id }, 400],
      [{ intoId: 999999 }, 400],
      [{ intoId: into.id, updatedAt: "2001-01-01T00:00:00.000000Z" }, 409],
    ] as [object, number][])
      expect((await post(`/api/admin/verticals/${from.id}/merge`, payload)).statusCode, JSON.stringify(payload)).toBe(
        status,
      );

    const res = await post(`/api/admin/verticals/${from.id}/merge`, { intoId: into.id, updatedAt: from.updatedAt });
    expect(res.statusCode, res.body).toBe(200);
    const { into: after, offersMoved } = res.json<{ into: AdminVertical; offersMoved: number }>();
    expect(offersMoved).toBeGreaterThan(0);
    expect(after.offerCount).toBe(expected);
    const [{ left }] = await t.db.query<{ left: number }>(
      sql`SELECT count(*)::int AS left FROM offers WHERE ${from.id} = ANY(category_ids)`,
    );
    expect(left).toBe(0);
    if (onlyFrom) expect(await categoryIdsOf(onlyFrom.id)).toContain(into.id);
    if (both) expect((await categoryIdsOf(both.id)).filter((id) => id === into.id)).toHaveLength(1);
    expect(await t.db.query(sql`SELECT 1 FROM categories WHERE id = ${from.id}`)).toEqual([]);
    const [audit] = await auditRows("vertical.merge", from.id);
    expect(audit.after).toEqual({ mergedInto: { id: into.id, name: into.name }, offersMoved });

    // The public lists forget it at once; an old filter or feed naming it answers, never 500s.
    const categories = (await get("/api/verticals")).json().categories as { id: number }[];
    expect(categories.map((c) => c.id)).not.toContain(from.id);
    const filters = await get("/api/offer-filters");
    expect(filters.statusCode).toBe(200);
    expect(filters.json().categories.map((c: { id: number }) => c.id)).not.toContain(from.id);
    const search = await post("/api/offers/search", { query: "", page: 1, categories: [from.id] });
    expect(search.statusCode).toBe(200);
    expect(search.json().total).toBe(0);
    expect((await t.app.inject(`/?categories=${from.id}`)).statusCode).toBe(200);
    expect((await t.app.inject(`/feeds/offers.xml?vertical=${from.slug}`)).statusCode).toBeLessThan(500);
    expect((await post(`/api/admin/verticals/${from.id}/merge`, { intoId: into.id })).statusCode).toBe(404);
  });
});
