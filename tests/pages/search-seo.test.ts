// The search pages' policy for search engines (docs/decisions/0025): each
// result has one canonical address however its URL was spelled (case, spaces,
// tracking parameters, defaults, parameter order), only plain searches and
// verticals are offered for indexing, and titles name what was searched.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

const ORIGIN = "https://offers.example.com";
let t: TestApp;
let vertical: { id: number; name: string };
let networkId: number;

beforeAll(async () => {
  t = await createTestApp({
    seed: { networks: 30, offers: 300, trafficSources: 25 },
    env: { PUBLIC_URL: ORIGIN },
  });
  [vertical] = await t.db.query<{ id: number; name: string }>(
    sql`SELECT c.id, c.name FROM categories c WHERE EXISTS (SELECT 1 FROM offers o WHERE c.id = ANY (o.category_ids)) ORDER BY c.id LIMIT 1`,
  );
  [{ id: networkId }] = await t.db.query<{ id: number }>(sql`SELECT id FROM networks ORDER BY id LIMIT 1`);
});
afterAll(() => t?.close());

const decode = (s: string) =>
  s
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<");

/** What a crawler reads of a page's head. */
async function head(url: string) {
  const res = await t.app.inject(url);
  expect(res.statusCode, url).toBe(200);
  const h = res.body.slice(0, res.body.indexOf("</head>"));
  const canonicals = [...h.matchAll(/<link rel="canonical" href="([^"]*)"/g)].map((m) => decode(m[1]));
  expect(canonicals, url).toHaveLength(1);
  return {
    canonical: canonicals[0].slice(ORIGIN.length),
    robots: /<meta name="robots" content="([^"]*)"/.exec(h)?.[1] ?? null,
    title: decode(/<title>([^<]*)<\/title>/.exec(h)?.[1] ?? ""),
    description: decode(/<meta name="description" content="([^"]*)"/.exec(h)?.[1] ?? ""),
    ogUrl: decode(/<meta property="og:url" content="([^"]*)"/.exec(h)?.[1] ?? "").slice(ORIGIN.length),
  };
}

describe("offers search pages", () => {
  it("give a search one indexable address, whatever the case, spaces, defaults or tracking parameters", async () => {
    for (const url of [
      "/?search=casino",
      "/?search=CASINO",
      "/?search=%20%20Casino%20",
      "/?search=casino&utm_source=x&utm_campaign=y&fbclid=z",
      "/?selectedTab=topOffers&search=casino&page=1",
      "/?search=casino&show=networks",
    ]) {
      const page = await head(url);
      expect(page.canonical, url).toBe("/?search=casino");
      expect(page.ogUrl, url).toBe("/?search=casino");
      expect(page.robots, url).toBeNull();
      expect(page.title, url).toBe("Casino affiliate offers | OfferAtlas");
      expect(page.description, url).toMatch(/^Compare [\d,]+\+? casino affiliate offers across networks/);
    }
  });

  it("keeps the home page at / with its own title", async () => {
    for (const url of ["/", "/?selectedTab=topOffers&search=&page=1", "/?utm_source=newsletter"]) {
      const page = await head(url);
      expect(page.canonical, url).toBe("/");
      expect(page.robots, url).toBeNull();
      expect(page.title, url).toBe("The highest-paying affiliate programs and offers | OfferAtlas");
    }
  });

  it("offers a vertical (one category alone, the offer breadcrumb's step) for indexing under its name", async () => {
    for (const url of [
      `/?categories=${vertical.id}`,
      `/?selectedTab=topOffers&search=&page=1&categories=${vertical.id}`,
    ]) {
      const page = await head(url);
      expect(page.canonical, url).toBe(`/?categories=${vertical.id}`);
      expect(page.robots, url).toBeNull();
      expect(page.title, url).toBe(`${vertical.name} affiliate offers | OfferAtlas`);
    }
  });

  it("marks tabs, sorts, filters and later pages noindex, follow, each at its own normalised address", async () => {
    const cases: [url: string, canonical: string, title?: string][] = [
      ["/?search=Casino&selectedTab=newest", "/?search=casino&selectedTab=newest", "Casino affiliate offers – Newest"],
      ["/?page=2&search=casino&utm_source=x", "/?search=casino&page=2", "Casino affiliate offers (page 2)"],
      // The sort's usual direction is the default: left out; the other one stays.
      ["/?search=casino&sortBy=payout&sortDesc=true", "/?search=casino&sortBy=payout"],
      ["/?search=casino&sortBy=payout&sortDesc=false", "/?search=casino&sortBy=payout&sortDesc=false"],
      // sortDesc without a sort changes nothing: the plain search, indexable (checked below).
      // Lists: sorted, upper-cased country codes, one parameter each, in a fixed order.
      ["/?countries=us,CA&search=casino", "/?search=casino&countries=CA%2CUS"],
      [
        `/?networks=${networkId}&categories=${vertical.id}`,
        `/?categories=${vertical.id}&networks=${networkId}`,
        `${vertical.name} affiliate offers`,
      ],
      ["/?selectedTab=mobile", "/?selectedTab=mobile", "The highest-paying affiliate programs and offers – Mobile"],
    ];
    for (const [url, canonical, title] of cases) {
      const page = await head(url);
      expect(page.canonical, url).toBe(canonical);
      expect(page.robots, url).toBe("noindex, follow");
      if (title) expect(page.title, url).toBe(`${title} | OfferAtlas`);
    }
    expect((await head("/?search=casino&sortDesc=false")).robots).toBeNull();
  });

  it("do the same on /pay-per-call-offers", async () => {
    const plain = await head("/pay-per-call-offers?search=Casino&utm_medium=email");
    expect(plain.canonical).toBe("/pay-per-call-offers?search=casino");
    expect(plain.robots).toBeNull();
    expect(plain.title).toBe("Casino pay-per-call offers | OfferAtlas");
    const home = await head("/pay-per-call-offers?selectedTab=topOffers&search=&page=1");
    expect(home.canonical).toBe("/pay-per-call-offers");
    expect(home.title).toBe("Pay-per-call offers | OfferAtlas");
    const tab = await head("/pay-per-call-offers?selectedTab=newest");
    expect(tab.canonical).toBe("/pay-per-call-offers?selectedTab=newest");
    expect(tab.robots).toBe("noindex, follow");
  });
});

describe("directory searches", () => {
  it("give /networks and /traffic-sources searches one indexable address, without the shuffle's seed", async () => {
    const networks = await head("/networks?search=%20MAX%20&order=abcdefgh12&utm_source=x");
    expect(networks.canonical).toBe("/networks?search=max");
    expect(networks.robots).toBeNull();
    expect(networks.title).toBe("Affiliate networks matching “max” | OfferAtlas");
    expect(networks.description).toMatch(/^\d+ affiliate networks matching “max”\./);
    const sources = await head("/traffic-sources?search=Push&order=abcdefgh12");
    expect(sources.canonical).toBe("/traffic-sources?search=push");
    expect(sources.robots).toBeNull();
    expect(sources.title).toBe("Traffic sources matching “push” | OfferAtlas");
    const all = await head("/networks?order=abcdefgh12&page=1");
    expect(all.canonical).toBe("/networks");
    expect(all.title).toBe("Affiliate networks: ratings, reviews and offers | OfferAtlas");
  });

  it("mark later pages noindex, follow", async () => {
    const second = await head("/networks?page=2&order=abcdefgh12");
    expect(second.canonical).toBe("/networks?page=2");
    expect(second.robots).toBe("noindex, follow");
    expect(second.title).toBe("Affiliate networks: ratings, reviews and offers (page 2) | OfferAtlas");
    const sources = await head("/traffic-sources?page=2&order=abcdefgh12");
    expect(sources.canonical).toBe("/traffic-sources?page=2");
    expect(sources.robots).toBe("noindex, follow");
  });
});
