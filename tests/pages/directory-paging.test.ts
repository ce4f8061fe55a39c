// /networks and /traffic-sources without JavaScript (spec §4): each visit gets a fresh
// shuffle, and following the page links from any page shows every entry exactly once,
// because the links carry the shuffle's seed (`order`). Each page carries its own rows only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { NETWORKS_PAGE_SIZE } from "#contracts/networks.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 65, offers: 200, trafficSources: 45 } });
});
afterAll(() => t?.close());

const decode = (href: string) => href.replace(/&amp;/g, "&");

/** The ids of a page's rows (their links), and its numbered page links. */
async function read(url: string, entry: "network" | "traffic-sources/details") {
  const res = await t.app.inject(url);
  expect(res.statusCode, url).toBe(200);
  const table = res.body.slice(res.body.indexOf("<table"), res.body.indexOf("</table>"));
  const ids = [...table.matchAll(new RegExp(`href="/${entry}/(\\d+)`, "g"))].map((m) => Number(m[1]));
  const pages = new Map<number, string>();
  for (const m of res.body.matchAll(/href="([^"]*page=\d+[^"]*)"/g)) {
    const href = decode(m[1]);
    const page = Number(new URL(href, "http://x").searchParams.get("page"));
    if (new URL(href, "http://x").pathname === new URL(url, "http://x").pathname) pages.set(page, href);
  }
  return { ids: [...new Set(ids)], pages, body: res.body };
}

async function walk(path: string, entry: "network" | "traffic-sources/details") {
  const first = await read(path, entry);
  const seen = [...first.ids];
  const pageCount = Math.max(...first.pages.keys());
  for (let p = 2; p <= pageCount; p++) seen.push(...(await read(first.pages.get(p)!, entry)).ids);
  return { seen, first };
}

describe("directory paging without JavaScript", () => {
  it("walks every listed network exactly once, 20 a page, from a fresh shuffle per visit", async () => {
    const [{ n }] = await t.db.query<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM networks x WHERE x.status = 'active'
        AND EXISTS (SELECT 1 FROM network_properties p WHERE p.network_id = x.id AND p.identifier = ${t.config.siteId})`);
    const { seen, first } = await walk("/networks", "network");
    expect(first.ids).toHaveLength(NETWORKS_PAGE_SIZE);
    expect(seen).toHaveLength(n);
    expect(new Set(seen).size).toBe(n);
    // The page carries its own rows, not the whole directory for the browser to cut.
    expect(first.body.match(/href="\/network\/\d+/g)!.length).toBeLessThan(3 * NETWORKS_PAGE_SIZE);

    // Another visit starts from another shuffle (65! orders: equal first pages would be a broken shuffle).
    const again = await read("/networks", "network");
    expect(again.ids).not.toEqual(first.ids);
    // A page link followed twice (a reload, a shared link) shows the same rows.
    const link = first.pages.get(2)!;
    expect((await read(link, "network")).ids).toEqual((await read(link, "network")).ids);
  });

  it("does the same for traffic sources, featured first", async () => {
    const [{ n }] = await t.db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM traffic_sources`);
    const { seen } = await walk("/traffic-sources", "traffic-sources/details");
    expect(seen).toHaveLength(n);
    expect(new Set(seen).size).toBe(n);
  });

  it("starts a fresh shuffle when the seed is not one it made, and lands past-the-end pages on the last", async () => {
    const bad = await read("/networks?order=%3Cscript%3E&page=2", "network");
    expect(bad.body).not.toContain("<script>&page");
    expect(bad.ids).toHaveLength(NETWORKS_PAGE_SIZE);
    const last = await read("/networks?page=999", "network");
    expect(last.ids.length).toBeGreaterThan(0);
    expect(last.ids.length).toBeLessThanOrEqual(NETWORKS_PAGE_SIZE);
  });
});
