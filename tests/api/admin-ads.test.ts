// House ads in the console: every route answers 401/403 without the admin role;
// create, edit (a stale edit answers 409) and retire with audit rows; serving
// respects the dates, the site and the search-bar keywords; impressions and clicks
// are counted in batches into house_ad_stats, which holds nothing about the visitor.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import type { AdminAdList, AdminHouseAd, AdReport, AdsBySize } from "#contracts/ads.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";

let t: TestApp;
let admin: Awaited<ReturnType<typeof signInWithRoles>>;
let plain: Awaited<ReturnType<typeof signInWithRoles>>;

const day = (offset = 0) => new Date(Date.now() + offset * 864e5).toISOString().slice(0, 10);

const banner = (extra: object = {}) => ({
  size: "728x90",
  headline: "Spring payout boost",
  body: "Every network that pays more this month.",
  targetUrl: "/networks",
  startsOn: day(),
  weight: 5,
  ...extra,
});

const create = (payload: object, headers = admin.headers) =>
  t.app.inject({ method: "POST", url: "/api/admin/ads", headers, payload });
const edit = (id: number | string, payload: object, headers = admin.headers) =>
  t.app.inject({ method: "PUT", url: `/api/admin/ads/${id}`, headers, payload });
const retire = (id: number | string, payload: object, headers = admin.headers) =>
  t.app.inject({ method: "POST", url: `/api/admin/ads/${id}/retire`, headers, payload });
const list = (query = "", headers = admin.headers) => t.app.inject({ url: `/api/admin/ads${query}`, headers });

async function created(payload: object): Promise<AdminHouseAd> {
  const res = await create(payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<AdminHouseAd>();
}

/** Every ad the page could show, all sizes (an always-first pick walks the whole pool over many calls). */
async function served(search = "", siteId = t.config.siteId): Promise<Set<number>> {
  const seen = new Set<number>();
  for (let i = 0; i < 40; i++) {
    const ads: AdsBySize = await t.app.services.ads.forPage(siteId, { search }, () => (i % 20) / 20);
    for (const list of Object.values(ads)) for (const ad of list) seen.add(ad.id);
  }
  return seen;
}

const auditRows = (id: number) =>
  t.db.query<{ action: string; actor_id: number; before: unknown; after: unknown }>(
    sql`SELECT action, actor_id, before, after FROM audit_log WHERE subject_type = 'house_ad' AND subject_id = ${id}
        ORDER BY id`,
  );

beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 2, offers: 10, trafficSources: 1 } });
  admin = await signInWithRoles(t, ["admin"]);
  plain = await signInWithRoles(t, []);
  await t.db.query(sql`INSERT INTO sites (id, name) VALUES ('sister', 'Sister site') ON CONFLICT DO NOTHING`);
});
afterAll(() => t?.close());

describe("/api/admin/ads guards", () => {
  it("answers 401 without a session and 403 to a plain user or a moderator on every route", async () => {
    const moderator = await signInWithRoles(t, ["moderator"]);
    const routes = [
      { method: "GET", url: "/api/admin/ads" },
      { method: "POST", url: "/api/admin/ads", payload: banner() },
      { method: "GET", url: "/api/admin/ads/report" },
      { method: "GET", url: "/api/admin/ads/1" },
      { method: "PUT", url: "/api/admin/ads/1", payload: { ...banner(), updatedAt: "x" } },
      { method: "POST", url: "/api/admin/ads/1/retire", payload: { updatedAt: "x" } },
    ] as const;
    for (const route of routes) {
      expect((await t.app.inject(route)).statusCode, `${route.method} ${route.url}`).toBe(401);
      for (const who of [plain, moderator])
        expect((await t.app.inject({ ...route, headers: who.headers })).statusCode, route.url).toBe(403);
    }
    const [{ n }] = await t.db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM house_ads WHERE weight = 5`);
    expect(n).toBe(0);
  });

  it("guards the console pages the same way: 401 without a session, 403 without the admin role", async () => {
    const moderator = await signInWithRoles(t, ["moderator"]);
    const cookie = (who: typeof admin) => ({ cookie: `auth._token.local=${who.headers.authorization.slice(7)}` });
    for (const url of ["/admin/ads", "/admin/ads/new", "/admin/ads/report", "/admin/ads/1"]) {
      expect((await t.app.inject(url)).statusCode, url).toBe(401);
      for (const who of [plain, moderator])
        expect((await t.app.inject({ url, headers: cookie(who) })).statusCode, url).toBe(403);
      const ok = await t.app.inject({ url, headers: cookie(admin) });
      expect(ok.statusCode, url).toBe(200);
    }
    const post = await t.app.inject({
      method: "POST",
      url: "/admin/ads/new",
      headers: { ...cookie(plain), "content-type": "application/x-www-form-urlencoded" },
      payload: "intent=save&size=728x90&headline=Nope&targetUrl=%2F&startsOn=2026-01-01",
    });
    expect(post.statusCode).toBe(403);
    expect(await t.db.query(sql`SELECT 1 FROM house_ads WHERE headline = 'Nope'`)).toEqual([]);
  });
});

describe("/api/admin/ads", () => {
  it("creates an ad with an audit row and lists it, paged, filtered and sorted", async () => {
    const ad = await created(banner({ keywords: "" }));
    expect(ad).toMatchObject({
      size: "728x90",
      headline: "Spring payout boost",
      targetUrl: "/networks",
      siteId: null,
      keywords: [],
      startsOn: day(),
      endsOn: null,
      active: true,
      status: "active",
      impressions: 0,
      clicks: 0,
      ctr: null,
    });
    const [audit] = await auditRows(ad.id);
    expect(audit).toMatchObject({ action: "house_ad.create", actor_id: admin.user.id, before: null });
    expect(audit.after).toMatchObject({ headline: "Spring payout boost", size: "728x90" });

    const page = (await list()).json<AdminAdList>();
    expect(page).toMatchObject({ page: 1, pageSize: 50 });
    expect(page.items[0].id).toBe(ad.id); // newest first by default
    const banners = (await list("?size=728x90&sort=weight&dir=desc")).json<AdminAdList>();
    expect(banners.items.every((a) => a.size === "728x90")).toBe(true);
    expect(banners.items.map((a) => a.weight)).toEqual([...banners.items.map((a) => a.weight)].sort((a, b) => b - a));
    expect(banners.total).toBe(4); // three seeded banners and this one
    const got = await t.app.inject({ url: `/api/admin/ads/${ad.id}`, headers: admin.headers });
    expect(got.json<AdminHouseAd>().updatedAt).toBe(ad.updatedAt);
    for (const bad of ["?size=1x1", "?status=live", "?page=0"]) expect((await list(bad)).statusCode, bad).toBe(400);
    for (const missing of ["999999", "abc"]) {
      const res = await t.app.inject({ url: `/api/admin/ads/${missing}`, headers: admin.headers });
      expect(res.statusCode, missing).toBe(404);
    }
  });

  it("refuses bad input with 400 and the field's message", async () => {
    const cases: [object, RegExp][] = [
      [{ size: "300x250" }, /Slot size must be one of 728x90, 270x70, 250x250, 125x125, 370x165/],
      [{ headline: "  " }, /Headline cannot be blank/],
      [{ targetUrl: "javascript:alert(1)" }, /Target URL must be an http\(s\) address or a path on this site/],
      [{ targetUrl: "//evil.example/x" }, /Target URL must be/],
      [{ targetUrl: "/\\evil.example" }, /Target URL must be/],
      [{ imageUrl: "http://insecure.example/a.png" }, /Image URL must be an https address/],
      [{ imageUrl: "data:image/png;base64,AAAA" }, /Image URL must be/],
      [{ startsOn: "2026-02-30" }, /Start date must be a date/],
      [{ startsOn: day(), endsOn: day(-1) }, /End date must be on or after the start date/],
      [{ weight: 0 }, /Weight must be greater than or equal to 1/],
      [{ weight: 1001 }, /Weight must be at most 1000/],
      [{ weight: "1.5" }, /Weight must be an integer/],
      [{ siteId: "nowhere" }, /Site is not one of the sites/],
      [{ keywords: ["insurance"] }, /Keywords are only for 370x165 ads/],
      [{ size: "370x165", keywords: ["x".repeat(61)] }, /at most 60 characters/],
    ];
    const before = await t.db.query(sql`SELECT id FROM house_ads`);
    for (const [change, message] of cases) {
      const res = await create(banner(change));
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(message);
    }
    expect(await t.db.query(sql`SELECT id FROM house_ads`)).toHaveLength(before.length);
  });

  it("saves an edit with an audit row and refuses a stale one with 409", async () => {
    const ad = await created(banner({ headline: "Before the edit" }));
    const saved = await edit(ad.id, { ...banner({ headline: "After the edit", weight: 7 }), updatedAt: ad.updatedAt });
    expect(saved.statusCode, saved.body).toBe(200);
    const after = saved.json<AdminHouseAd>();
    expect(after).toMatchObject({ headline: "After the edit", weight: 7 });
    expect(after.updatedAt).not.toBe(ad.updatedAt);

    const stale = await edit(ad.id, { ...banner({ headline: "Lost update" }), updatedAt: ad.updatedAt });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<{ message: string }>().message).toMatch(/Someone else changed this ad/);
    const [row] = await t.db.query<{ headline: string }>(sql`SELECT headline FROM house_ads WHERE id = ${ad.id}`);
    expect(row.headline).toBe("After the edit");
    expect((await edit(ad.id, banner())).statusCode).toBe(400); // no updatedAt
    expect((await edit(ad.id, { ...banner({ weight: -1 }), updatedAt: after.updatedAt })).statusCode).toBe(400);
    expect((await edit(999999, { ...banner(), updatedAt: after.updatedAt })).statusCode).toBe(404);

    const audits = await auditRows(ad.id);
    expect(audits.map((a) => a.action)).toEqual(["house_ad.create", "house_ad.update"]);
    expect(audits[1].before).toMatchObject({ headline: "Before the edit", weight: 5 });
    expect(audits[1].after).toMatchObject({ headline: "After the edit", weight: 7 });
  });

  it("retires an ad: it stops serving on this instance at once, its clicks answer 404", async () => {
    const ad = await created(banner({ headline: "Soon retired", weight: 1000 }));
    expect(await served()).toContain(ad.id); // now cached for 60 s
    expect((await retire(ad.id, { updatedAt: "2000-01-01T00:00:00.000000Z" })).statusCode).toBe(409);
    const res = await retire(ad.id, { updatedAt: ad.updatedAt });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<AdminHouseAd>()).toMatchObject({ active: false, status: "inactive" });
    expect(await served()).not.toContain(ad.id);
    expect((await t.app.inject(`/ads/${ad.id}/click`)).statusCode).toBe(404);
    const again = await retire(ad.id, { updatedAt: ad.updatedAt });
    expect(again.statusCode).toBe(200); // already retired: nothing changes
    expect((await auditRows(ad.id)).map((a) => a.action)).toEqual(["house_ad.create", "house_ad.retire"]);
    const inactive = (await list("?status=inactive")).json<AdminAdList>();
    expect(inactive.items.map((a) => a.id)).toEqual([ad.id]);
  });

  it("serves an ad only within its dates and on its site; an edit shows at once", async () => {
    const scheduled = await created(banner({ headline: "Next week", startsOn: day(7) }));
    const ended = await created(banner({ headline: "Last month", startsOn: day(-40), endsOn: day(-1) }));
    const lastDay = await created(banner({ headline: "Ends today", startsOn: day(-3), endsOn: day() }));
    const sister = await created(banner({ headline: "Sister only", siteId: "sister" }));
    expect(scheduled.status).toBe("scheduled");
    expect(ended.status).toBe("ended");
    expect(lastDay.status).toBe("active");
    const here = await served();
    expect(here).toContain(lastDay.id);
    for (const id of [scheduled.id, ended.id, sister.id]) expect(here).not.toContain(id);
    expect(await served("", "sister")).toContain(sister.id);
    expect((await list("?status=scheduled")).json<AdminAdList>().items.map((a) => a.id)).toEqual([scheduled.id]);
    expect((await list("?status=ended")).json<AdminAdList>().items.map((a) => a.id)).toEqual([ended.id]);

    // Moving the start to today serves it at once, although the list of ads is cached.
    const moved = await edit(scheduled.id, { ...banner({ startsOn: day() }), updatedAt: scheduled.updatedAt });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await served()).toContain(scheduled.id);
  });

  it("fills the search-bar slot with an ad whose keywords match the search, else an untargeted one", async () => {
    const targeted = await created({
      ...banner({ size: "370x165", headline: "Insurance offers that pay" }),
      keywords: "Car  Insurance, health insurance",
    });
    expect(targeted.keywords).toEqual(["car insurance", "health insurance"]);
    const searchBar = async (search: string) => {
      const ids = new Set<number>();
      for (let i = 0; i < 20; i++) {
        const ads = await t.app.services.ads.forPage(t.config.siteId, { search }, () => i / 20);
        for (const ad of ads["370x165"]) ids.add(ad.id);
      }
      return ids;
    };
    expect([...(await searchBar("cheap car insurance quotes"))]).toEqual([targeted.id]);
    expect([...(await searchBar("Health INSURANCE"))]).toEqual([targeted.id]);
    const fallback = await searchBar("dating");
    expect(fallback.size).toBeGreaterThan(0);
    expect(fallback).not.toContain(targeted.id);
    expect(await searchBar("")).not.toContain(targeted.id);
    expect(await searchBar("car")).not.toContain(targeted.id); // every word of a keyword must be searched

    // The home page's search-bar slot answers to the search in its address.
    const page = await t.app.inject("/?search=car%20insurance");
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Insurance offers that pay");
    expect(page.body).toContain(`href="/ads/${targeted.id}/click"`);
  });
});

describe("counting impressions and clicks", () => {
  it("counts shown ads and clicks per day in one batch, redirecting to the ad's own target", async () => {
    const ad = await created(banner({ headline: "Counted", targetUrl: "https://network.example/join?ref=oa" }));
    const other = await created(banner({ size: "125x125", headline: "Counted too", targetUrl: "/advertise" }));
    const shown = (ids: unknown, remoteAddress = "203.0.113.9") =>
      t.app.inject({ method: "POST", url: "/ads/impressions", payload: { ads: ids }, remoteAddress });
    expect((await shown([ad.id, other.id])).statusCode).toBe(204);
    expect((await shown([ad.id, ad.id])).statusCode).toBe(204); // one view counts an ad once
    expect((await shown([ad.id, 987654321])).statusCode).toBe(204); // no such ad: dropped when written
    for (const bad of [[], "1", [0], ["x"], Array.from({ length: 14 }, (_, i) => i + 1)])
      expect((await shown(bad)).statusCode, JSON.stringify(bad)).toBe(400);

    const click = await t.app.inject({ url: `/ads/${ad.id}/click`, headers: { cookie: "auth._token.local=x" } });
    expect(click.statusCode).toBe(302);
    expect(click.headers.location).toBe("https://network.example/join?ref=oa");
    expect(click.headers["cache-control"]).toBe("no-store");
    const local = await t.app.inject(`/ads/${other.id}/click?to=https://evil.example`);
    expect(local.headers.location).toBe("/advertise"); // never where the request points
    // Neither a HEAD request nor an agent that says it is a robot counts as a click.
    const head = await t.app.inject({ method: "HEAD", url: `/ads/${ad.id}/click` });
    expect(head.statusCode).toBe(302);
    const crawler = await t.app.inject({
      url: `/ads/${ad.id}/click`,
      headers: { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" },
    });
    expect(crawler.headers.location).toBe("https://network.example/join?ref=oa");
    // Written by the flush the background work runs every second (and on close).
    await t.app.services.ads.flushStats();
    const rows = await t.db.query<{ ad_id: number; day: string; impressions: number; clicks: number }>(sql`
      SELECT ad_id, to_char(day, 'YYYY-MM-DD') AS day, impressions, clicks FROM house_ad_stats
      WHERE ad_id IN (${ad.id}, ${other.id}) ORDER BY ad_id`);
    expect(rows).toEqual([
      { ad_id: ad.id, day: day(), impressions: 3, clicks: 1 },
      { ad_id: other.id, day: day(), impressions: 1, clicks: 1 },
    ]);
    expect(await t.db.query(sql`SELECT 1 FROM house_ad_stats WHERE ad_id = 987654321`)).toEqual([]);

    // The table holds counts only: no address, account, cookie or agent.
    const columns = await t.db.query<{ column_name: string }>(sql`
      SELECT column_name FROM information_schema.columns
      WHERE table_name = 'house_ad_stats' AND table_schema = current_schema() ORDER BY ordinal_position`);
    expect(columns.map((c) => c.column_name)).toEqual(["ad_id", "day", "impressions", "clicks"]);

    // The list shows the last 30 days' numbers; the report any range.
    const listed = (await list("?sort=clicks&dir=desc")).json<AdminAdList>().items.find((a) => a.id === ad.id);
    expect(listed).toMatchObject({ impressions: 3, clicks: 1 });
    expect(listed?.ctr).toBeCloseTo(1 / 3);
    const report = await t.app.inject({ url: "/api/admin/ads/report", headers: admin.headers });
    expect(report.statusCode, report.body).toBe(200);
    const body = report.json<AdReport>();
    expect(body.to).toBe(day());
    expect(body.from).toBe(day(-29));
    expect(body.items.find((r) => r.id === ad.id)).toMatchObject({ impressions: 3, clicks: 1, status: "active" });
    expect(body.totals).toMatchObject({ impressions: 4, clicks: 2, ctr: 0.5 });
    const past = await t.app.inject({
      url: `/api/admin/ads/report?from=${day(-60)}&to=${day(-31)}`,
      headers: admin.headers,
    });
    expect(past.json<AdReport>().totals).toEqual({ impressions: 0, clicks: 0, ctr: null });
    for (const bad of [`?from=${day()}&to=${day(-1)}`, "?from=yesterday", `?from=2020-01-01&to=${day()}`]) {
      const res = await t.app.inject({ url: `/api/admin/ads/report${bad}`, headers: admin.headers });
      expect(res.statusCode, bad).toBe(400);
    }
  });

  it("answers an unknown ad's click with 404 (a page for browsers) and limits clicks per address", async () => {
    const json = await t.app.inject("/ads/987654321/click");
    expect(json.statusCode).toBe(404);
    expect(json.json()).toEqual({ message: "This ad is no longer running" });
    const page = await t.app.inject({ url: "/ads/nope/click", headers: { accept: "text/html,*/*" } });
    expect(page.statusCode).toBe(404);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    expect(page.body).toContain("This ad is no longer running");

    const ad = await created(banner({ headline: "Clicked a lot" }));
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++)
      statuses.push((await t.app.inject({ url: `/ads/${ad.id}/click`, remoteAddress: "198.51.100.7" })).statusCode);
    expect(statuses.slice(0, 60).every((s) => s === 302)).toBe(true);
    expect(statuses[60]).toBe(429);
    expect((await t.app.inject({ url: `/ads/${ad.id}/click`, remoteAddress: "198.51.100.8" })).statusCode).toBe(302);
  });
});
