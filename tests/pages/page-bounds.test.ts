// Out-of-range paging anywhere falls back or answers 4xx, never 5xx
// (`/network/{id}/{slug}?page=41` used to answer 500).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 8, offers: 200, trafficSources: 3 } });
});
afterAll(() => t?.close());

const PAGES = ["0", "-1", "41", "1000000000", "abc", "1.5", "1e3", ""];

describe("paged pages", () => {
  it("answer every page number with a page, a 301 to the canonical page or a 404, never 5xx", async () => {
    const [n] = await t.db.query<{ id: number; slug: string }>(sql`SELECT id, slug FROM networks ORDER BY id LIMIT 1`);
    const paged = [
      "/?page=",
      "/?search=casino&page=",
      "/pay-per-call-offers?page=",
      "/networks?page=",
      "/traffic-sources?page=",
      "/links?page=",
      `/network/${n.id}/${n.slug}?page=`,
      `/network/${n.id}/${n.slug}?reviewsPage=`,
    ];
    for (const base of paged) {
      for (const page of PAGES) {
        const res = await t.app.inject({ method: "GET", url: base + encodeURIComponent(page) });
        expect([200, 301, 404], `${base}${page}: ${res.statusCode}`).toContain(res.statusCode);
      }
    }
  });

  it("answer a sitemap page out of range with 404", async () => {
    for (const page of PAGES) {
      const res = await t.app.inject({ method: "GET", url: `/sitemaps/offers/${encodeURIComponent(page)}.xml` });
      expect(res.statusCode, page).toBe(404);
    }
  });

  it("refuse a bad page on the API with 400 { message }, and answer an empty page past the end", async () => {
    const [n] = await t.db.query<{ id: number }>(sql`SELECT id FROM networks ORDER BY id LIMIT 1`);
    for (const page of ["0", "-1", "abc", "1.5", "1e3", "0x2"]) {
      for (const url of [`/api/networks/${n.id}/reviews?page=${page}`, `/api/links?page=${page}`]) {
        const res = await t.app.inject({ method: "GET", url });
        expect(res.statusCode, url).toBe(400);
        expect(Object.keys(res.json())).toEqual(["message"]);
      }
      const search = await t.app.inject({ method: "POST", url: "/api/offers/search", payload: { page } });
      expect(search.statusCode, page).toBe(400);
    }
    const far = await t.app.inject({ method: "GET", url: `/api/networks/${n.id}/reviews?page=1000000000` });
    expect(far.statusCode).toBe(200);
    const beyond = await t.app.inject({ method: "POST", url: "/api/offers/search", payload: { page: 41 } });
    expect(beyond.statusCode).toBe(400);
  });
});
