// Every page of the route table has a title, a description and a canonical address,
// and every page behind a sign-in (account, console) is kept out of search results.
// The pages are read from the build's route table, so a page added later is covered too.
import path from "node:path";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_DIR } from "#server/app.ts";
import { AUTH_COOKIE } from "#core/auth/sessions.ts";
import { sql } from "#db/client.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";

const ORIGIN = "https://offers.example.com";
let t: TestApp;
let build: ServerBuild;
let admin: string;

/** A route's full URL pattern, its parents' segments first. */
function fullPattern(routes: ServerBuild["routes"], id: string): string {
  const route = routes[id]!;
  const parent = route.parentId ? fullPattern(routes, route.parentId) : "";
  return [parent, route.path ?? ""].filter(Boolean).join("/");
}

beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 4, offers: 40, trafficSources: 2 }, env: { PUBLIC_URL: ORIGIN } });
  build = (await import(path.join(BUILD_DIR, "server", "index.js"))) as ServerBuild;
  const account = await signInWithRoles(t, ["admin"]);
  admin = `${AUTH_COOKIE}=${account.headers.authorization.replace("Bearer ", "")}`;
});
afterAll(() => t?.close());

/** Real records for the routes' parameters, so each page answers with its content. */
async function addressOf(pattern: string): Promise<string> {
  const one = async (q: ReturnType<typeof sql>) => (await t.db.query<{ id: number; slug?: string }>(q))[0];
  const offer = await one(sql`SELECT id, slug FROM offers WHERE status = 'active' ORDER BY id LIMIT 1`);
  const network = await one(sql`SELECT id, slug FROM networks WHERE status = 'active' ORDER BY id LIMIT 1`);
  const source = await one(sql`SELECT id FROM traffic_sources WHERE status = 'active' ORDER BY id LIMIT 1`);
  const vertical = await one(sql`SELECT id FROM categories ORDER BY id LIMIT 1`);
  const ad = await one(sql`SELECT id FROM house_ads ORDER BY id LIMIT 1`);
  const ids: Record<string, string> = {
    "offer/:id?/:slug?": `offer/${offer.id}/${offer.slug}`,
    "network/:id?/:slug?": `network/${network.id}/${network.slug}`,
    "traffic-sources/details/:id": `traffic-sources/details/${source.id}`,
    "admin/offers/:id": `admin/offers/${offer.id}`,
    "admin/networks/:id": `admin/networks/${network.id}`,
    "admin/traffic-sources/:id": `admin/traffic-sources/${source.id}`,
    "admin/verticals/:id": `admin/verticals/${vertical.id}`,
    ...(ad ? { "admin/ads/:id": `admin/ads/${ad.id}` } : {}),
    "*": "no-such-page",
  };
  return `/${ids[pattern] ?? pattern.replace(/:[a-zA-Z]+\??/g, "1")}`;
}

/** The pages: routes that render (a default export) and hold no other page. */
function pages() {
  const routes = build.routes;
  const parents = new Set(Object.values(routes).map((r) => r?.parentId));
  return Object.entries(routes)
    .filter(([id, r]) => id !== "root" && r?.module.default && !parents.has(id))
    .map(([id]) => ({ id, pattern: fullPattern(routes, id) }));
}

const UNLISTED = /^(account|admin|unsubscribe|reset-password|compare|404|\*)(\/|$)/;

describe("every page of the route table", () => {
  it("has a title, a description and a canonical address; pages behind a sign-in are noindex", async () => {
    const all = pages();
    expect(all.map((p) => p.pattern)).toEqual(
      expect.arrayContaining(["", "login", "account", "account/watchlist", "admin", "admin/offers/:id", "*"]),
    );
    const notRendered: string[] = [];
    for (const { id, pattern } of all) {
      const url = await addressOf(pattern);
      let res = await t.app.inject(url);
      // Signed out, a page behind a sign-in redirects or refuses: open it as an admin.
      if ([302, 401, 403].includes(res.statusCode)) res = await t.app.inject({ url, headers: { cookie: admin } });
      // A legacy address answers 301 to its page, which is checked under its own route.
      if (res.statusCode === 301) continue;
      if (![200, 404].includes(res.statusCode)) {
        notRendered.push(`${pattern} (${res.statusCode})`);
        continue;
      }
      // A record-less page (no such id here) answers 404 from its loader: only the no-match pages should.
      if (res.statusCode === 404 && !/^(404|\*)$/.test(pattern)) {
        notRendered.push(`${pattern} (404)`);
        continue;
      }
      const head = res.body.slice(0, res.body.indexOf("</head>"));
      const where = `${id} at ${url}`;
      expect(head.match(/<title>[^<]+<\/title>/g), where).toHaveLength(1);
      expect(head.match(/<meta name="description" content="[^"]{20,}"\/>/g), where).toHaveLength(1);
      const canonical = [...head.matchAll(/<link rel="canonical" href="([^"]*)"\/>/g)].map((m) => m[1]);
      expect(canonical, where).toHaveLength(1);
      expect(canonical[0].startsWith(`${ORIGIN}/`), where).toBe(true);
      if (UNLISTED.test(pattern)) expect(head, where).toMatch(/<meta name="robots" content="noindex/);
    }
    // Pages needing records these tests do not make (a submission, an offer source, an alert's
    // token) are opened by their own suites; every other page rendered above.
    expect(notRendered.filter((p) => !/^(admin\/(submissions|sources|ads)\/|unsubscribe\/)/.test(p))).toEqual([]);
  });
});
