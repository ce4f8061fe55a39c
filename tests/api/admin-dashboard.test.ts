// The dashboard's numbers against the database: known searches (with and
// without results), join clicks on known days, submissions, reports, held
// reviews and inbox messages are inserted, and the API and the /admin page must
// show exactly what they add up to; another site's rows are never counted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { AUTH_COOKIE } from "#core/auth/sessions.ts";
import type { Dashboard } from "#core/dashboard/dashboard.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";

type Account = Awaited<ReturnType<typeof signInWithRoles>>;
let t: TestApp;
let admin: Account;
let netA: { id: number; name: string };
let netB: { id: number; name: string };
/** The database's UTC day `n` days ago, YYYY-MM-DD. */
let dayAgo: (n: number) => string;

const OTHER_SITE = "other-dash";

beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 3, offers: 5, trafficSources: 1 } });
  admin = await signInWithRoles(t, ["admin"]);
  const authors = await Promise.all([1, 2, 3, 4].map(() => signInWithRoles(t, [])));
  const site = t.config.siteId;
  const db = t.db;
  // Only the rows below count.
  await db.query(sql`DELETE FROM search_log`);
  await db.query(sql`DELETE FROM join_clicks`);
  await db.query(sql`DELETE FROM reviews`);
  await db.query(sql`DELETE FROM network_submissions`);
  await db.query(sql`DELETE FROM advertisement_requests`);
  await db.query(sql`DELETE FROM contact_messages`);
  await db.query(sql`INSERT INTO sites (id, name) VALUES (${OTHER_SITE}, 'Other')`);
  [netA, netB] = await db.query<{ id: number; name: string }>(sql`SELECT id, name FROM networks ORDER BY id LIMIT 2`);
  const [{ today }] = await db.query<{ today: string }>(
    sql`SELECT to_char((now() AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS today`,
  );
  dayAgo = (n) => new Date(Date.parse(`${today}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

  // Searches: [query, results, searcher, days ago, site]. Noon UTC of the day, so no row sits on a day's edge.
  const searches: [string, number, string | null, number, string][] = [
    ["car insurance", 12, "a", 0, site],
    ["car insurance", 12, "b", 0, site],
    ["car insurance", 12, "a", 0, site],
    ["car insurance", 10, "c", 2, site],
    ["solar leads", 0, "a", 1, site],
    ["solar leads", 0, "b", 1, site],
    ["vpn", 5, "d", 3, site],
    ["vpn", 0, "c", 0, site],
    ["crypto loans", 0, null, 10, site], // outside 7 days, inside 30
    ["crypto loans", 0, null, 40, site], // outside 30 days
    ["solar leads", 0, "z", 0, OTHER_SITE], // another site
  ];
  for (const [query, results, searcher, ago, siteId] of searches)
    await db.query(sql`
      INSERT INTO search_log (site_id, query, result_count, ip_hash, created_at)
      VALUES (${siteId}, ${query}, ${results}, ${searcher},
              ((now() AT TIME ZONE 'UTC')::date - ${ago}::int + time '12:00') AT TIME ZONE 'UTC')`);

  // Join clicks: [network, days ago, site].
  const clicks: [number, number, string][] = [
    [netA.id, 0, site],
    [netA.id, 0, site],
    [netA.id, 2, site],
    [netB.id, 1, site],
    [netA.id, 8, site], // outside 7 days
    [netB.id, 0, OTHER_SITE],
  ];
  for (const [networkId, ago, siteId] of clicks)
    await db.query(sql`
      INSERT INTO join_clicks (network_id, site_id, created_at)
      VALUES (${networkId}, ${siteId}, ((now() AT TIME ZONE 'UTC')::date - ${ago}::int + time '12:00') AT TIME ZONE 'UTC')`);

  // Submissions: two new, one approved; one new on another site.
  for (const [status, siteId] of [
    ["pending", site],
    ["pending", site],
    ["approved", site],
    ["pending", OTHER_SITE],
  ])
    await db.query(sql`
      INSERT INTO network_submissions (site_id, status, name, email) VALUES (${siteId}, ${status}, 'Net', 'n@example.com')`);

  // Reviews: reported (two reports), reported before its last moderation (not waiting), held, hidden with a report.
  const review = async (author: Account, networkId: number, status: string, moderatedAgo: string | null) => {
    const [{ id }] = await db.query<{ id: number }>(sql`
      INSERT INTO reviews (network_id, user_id, site_id, rating, comment, status, moderated_at)
      VALUES (${networkId}, ${author.user.id}, ${site}, 3, 'A review of the network.', ${status},
              CASE WHEN ${moderatedAgo}::text IS NULL THEN NULL ELSE now() - ${moderatedAgo}::interval END)
      RETURNING id`);
    return id;
  };
  const report = (reviewId: number, by: Account, ago: string) =>
    db.query(sql`
      INSERT INTO review_reports (review_id, user_id, reason, created_at)
      VALUES (${reviewId}, ${by.user.id}, 'spam', now() - ${ago}::interval)`);
  const reported = await review(authors[0], netA.id, "published", null);
  await report(reported, authors[1], "1 hour");
  await report(reported, authors[2], "2 hours");
  const cleared = await review(authors[1], netA.id, "published", "1 hour");
  await report(cleared, authors[0], "2 hours");
  await review(authors[2], netB.id, "held", null);
  const hidden = await review(authors[3], netB.id, "hidden", "1 day");
  await report(hidden, authors[0], "1 hour");

  // Inbox: one new advertise request and one new contact message; one done; one new on another site.
  await db.query(sql`
    INSERT INTO advertisement_requests (site_id, name, email, status) VALUES
      (${site}, 'Ada', 'ada@example.com', 'new'), (${OTHER_SITE}, 'Olga', 'olga@example.com', 'new')`);
  await db.query(sql`
    INSERT INTO contact_messages (site_id, name, email, subject, message, status) VALUES
      (${site}, 'Carl', 'carl@example.com', 'Hi', 'Hello', 'new'),
      (${site}, 'Dora', 'dora@example.com', 'Hi', 'Hello', 'done')`);
});
afterAll(() => t?.close());

const dashboard = (query = "", headers = admin.headers) =>
  t.app.inject({ url: `/api/admin/dashboard${query}`, headers });

describe("GET /api/admin/dashboard", () => {
  it("answers 401 without a session and 403 to a plain user or a moderator", async () => {
    expect((await t.app.inject({ url: "/api/admin/dashboard" })).statusCode).toBe(401);
    for (const roles of [[], ["moderator"]] as const) {
      const staff = await signInWithRoles(t, roles);
      expect((await dashboard("", staff.headers)).statusCode).toBe(403);
    }
  });

  it("counts the queues as their own pages do", async () => {
    const res = await dashboard();
    expect(res.statusCode, res.body).toBe(200);
    const { pending } = res.json<Dashboard>();
    expect(pending).toEqual({ submissions: 2, reportedReviews: 1, heldReviews: 1, inbox: 2 });
    const total = async (url: string) =>
      (await t.app.inject({ url, headers: admin.headers })).json<{ total: number }>().total;
    expect(await total("/api/admin/submissions?status=new")).toBe(pending.submissions);
    expect(await total("/api/admin/reviews?status=reported")).toBe(pending.reportedReviews);
    expect(await total("/api/admin/reviews?status=held")).toBe(pending.heldReviews);
    expect(await total("/api/admin/inbox?status=new")).toBe(pending.inbox);
  });

  it("counts searches and join clicks per day, top searches and searches without results", async () => {
    const res = await dashboard("?days=7");
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json<Dashboard>();
    expect(d).toMatchObject({ days: 7, from: dayAgo(6), to: dayAgo(0) });
    expect(d.perDay).toEqual([
      { day: dayAgo(6), searches: 0, searchesWithoutResults: 0, joinClicks: 0 },
      { day: dayAgo(5), searches: 0, searchesWithoutResults: 0, joinClicks: 0 },
      { day: dayAgo(4), searches: 0, searchesWithoutResults: 0, joinClicks: 0 },
      { day: dayAgo(3), searches: 1, searchesWithoutResults: 0, joinClicks: 0 },
      { day: dayAgo(2), searches: 1, searchesWithoutResults: 0, joinClicks: 1 },
      { day: dayAgo(1), searches: 2, searchesWithoutResults: 2, joinClicks: 1 },
      { day: dayAgo(0), searches: 4, searchesWithoutResults: 1, joinClicks: 2 },
    ]);
    expect(d.topSearches).toEqual([
      { query: "car insurance", searches: 4, searchers: 3, latestResults: 12 },
      { query: "solar leads", searches: 2, searchers: 2, latestResults: 0 },
      { query: "vpn", searches: 2, searchers: 2, latestResults: 0 },
    ]);
    expect(d.searchesWithoutResults).toEqual([
      { query: "solar leads", searches: 2, searchers: 2, lastSearchedAt: `${dayAgo(1)}T12:00:00.000Z` },
    ]);
    expect(d.joinClicksByNetwork).toEqual([
      {
        networkId: netA.id,
        name: netA.name,
        clicks: 3,
        perDay: [
          { day: dayAgo(2), clicks: 1 },
          { day: dayAgo(0), clicks: 2 },
        ],
      },
      { networkId: netB.id, name: netB.name, clicks: 1, perDay: [{ day: dayAgo(1), clicks: 1 }] },
    ]);
  });

  it("widens the window with days (default 30) and refuses a bad one", async () => {
    const d = (await dashboard()).json<Dashboard>();
    expect(d).toMatchObject({ days: 30, from: dayAgo(29), to: dayAgo(0) });
    expect(d.perDay).toHaveLength(30);
    expect(d.perDay.reduce((n, x) => n + x.searches, 0)).toBe(9);
    expect(d.perDay.reduce((n, x) => n + x.joinClicks, 0)).toBe(5);
    expect(d.searchesWithoutResults.map((s) => [s.query, s.searches, s.searchers])).toEqual([
      ["solar leads", 2, 2],
      ["crypto loans", 1, 1],
    ]);
    expect(d.joinClicksByNetwork.map((n) => [n.networkId, n.clicks])).toEqual([
      [netA.id, 4],
      [netB.id, 1],
    ]);
    expect((await dashboard("?days=1")).json<Dashboard>().perDay).toEqual([
      { day: dayAgo(0), searches: 4, searchesWithoutResults: 1, joinClicks: 2 },
    ]);
    expect((await dashboard("?days=365")).json<Dashboard>().perDay).toHaveLength(365);
    for (const bad of ["0", "366", "abc", "7.5", "-1"]) {
      const res = await dashboard(`?days=${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toEqual({ message: expect.stringContaining("days") });
    }
  });
});

describe("the /admin page", () => {
  const cookieOf = (account: Account) => `${AUTH_COOKIE}=${account.headers.authorization.replace("Bearer ", "")}`;
  const page = (url: string, account?: Account) =>
    t.app.inject({ url, headers: account ? { cookie: cookieOf(account) } : {} });
  /** The text of the first element after `marker` (tags dropped, whitespace squeezed), up to `until`. */
  const textAfter = (html: string, marker: string, until: string) => {
    const start = html.indexOf(marker);
    expect(start, marker).toBeGreaterThan(-1);
    // A marker inside a tag: the text starts where that tag ends.
    const from = marker.endsWith(">") ? start + marker.length : html.indexOf(">", start + marker.length) + 1;
    return html
      .slice(from, html.indexOf(until, from))
      .replace(/<!-- -->/g, "")
      .replace(/<[^>]*>/g, " ")
      .replace(/\s+/g, " ")
      .trim();
  };
  /** The first number of a cell in the row after `rowMarker`. */
  const cell = (html: string, rowMarker: string, name: string) =>
    textAfter(html.slice(html.indexOf(rowMarker)), `data-cell="${name}"`, "</td>").split(" ")[0];

  it("shows the same numbers as the API", async () => {
    const res = await page("/admin?days=7", admin);
    expect(res.statusCode).toBe(200);
    const html = res.body;
    expect(textAfter(html, 'data-testid="pending-submissions"', "</a>")).toBe("2 New network submissions");
    expect(textAfter(html, 'data-testid="pending-reportedReviews"', "</a>")).toBe("1 Reported reviews");
    expect(textAfter(html, 'data-testid="pending-heldReviews"', "</a>")).toBe("1 Reviews held by a rule");
    expect(textAfter(html, 'data-testid="pending-inbox"', "</a>")).toBe("2 New inbox messages");
    const today = `data-day="${dayAgo(0)}"`;
    expect([
      cell(html, today, "searches"),
      cell(html, today, "without-results"),
      cell(html, today, "join-clicks"),
    ]).toEqual(["4", "1", "2"]);
    const yesterday = `data-day="${dayAgo(1)}"`;
    expect(cell(html, yesterday, "without-results")).toBe("2");
    const totals = 'data-testid="per-day-total"';
    expect([
      cell(html, totals, "searches"),
      cell(html, totals, "without-results"),
      cell(html, totals, "join-clicks"),
    ]).toEqual(["8", "3", "4"]);
    const top = html.slice(html.indexOf('data-testid="top-searches"'));
    expect(cell(top, 'data-query="car insurance"', "searches")).toBe("4");
    expect(cell(top, 'data-query="car insurance"', "searchers")).toBe("3");
    const empty = html.slice(html.indexOf('data-testid="searches-without-results"'));
    expect(textAfter(empty, "<tbody>", "</tbody>")).toMatch(/^solar leads 2 2 /);
    const clicks = html.slice(html.indexOf('data-testid="join-clicks"'));
    expect(cell(clicks, `data-network-id="${netA.id}"`, "clicks")).toBe("3");
    expect(cell(clicks, `data-network-id="${netB.id}"`, "clicks")).toBe("1");
    expect(textAfter(html, `data-testid="join-clicks-days-${netA.id}"`, "</ul>")).toBe(
      `${dayAgo(2)}: 1 ${dayAgo(0)}: 2`,
    );
  });

  it("answers 401 without a session and 403 to a plain user; a moderator is sent to the submissions", async () => {
    expect((await page("/admin")).statusCode).toBe(401);
    expect((await page("/admin", await signInWithRoles(t, []))).statusCode).toBe(403);
    const moderator = await page("/admin", await signInWithRoles(t, ["moderator"]));
    expect(moderator.statusCode).toBe(302);
    expect(moderator.headers.location).toBe("/admin/submissions");
    expect((await page("/admin?days=0", admin)).statusCode).toBe(400);
  });

  it("shows each house ad's impressions, clicks and CTR over the same days", async () => {
    const [ad] = await t.db.query<{ id: number }>(sql`
      INSERT INTO house_ads (site_id, slot_size, headline, target_url, starts_on)
      VALUES (${t.config.siteId}, '728x90', 'Dashboard banner', '/advertise', ${dayAgo(20)})
      RETURNING id`);
    await t.db.query(sql`
      INSERT INTO house_ad_stats (ad_id, day, impressions, clicks) VALUES
        (${ad.id}, ${dayAgo(0)}, 120, 3), (${ad.id}, ${dayAgo(6)}, 80, 2), (${ad.id}, ${dayAgo(10)}, 500, 40)`);
    const row = `data-ad-id="${ad.id}"`;
    const week = (await page("/admin?days=7", admin)).body;
    const ctr = week.slice(week.indexOf('data-testid="house-ads-ctr"'));
    expect([cell(ctr, row, "impressions"), cell(ctr, row, "clicks"), cell(ctr, row, "ctr")]).toEqual([
      "200",
      "5",
      "2.50%",
    ]);
    const month = (await page("/admin?days=30", admin)).body;
    const wider = month.slice(month.indexOf('data-testid="house-ads-ctr"'));
    expect([cell(wider, row, "impressions"), cell(wider, row, "clicks"), cell(wider, row, "ctr")]).toEqual([
      "700",
      "45",
      "6.43%",
    ]);
  });
});
