// Server-rendered pages through the real React Router handler.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 12, offers: 300, trafficSources: 4 } });
});
afterAll(() => t?.close());

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, " ");

describe("site shell", () => {
  it("renders the home page with the navigation, footer and offers from the database", async () => {
    const res = await t.app.inject("/");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/text\/html/);
    const body = text(res.body);
    expect(body).toContain("Enter a search term below to find and compare offers");
    for (const href of [
      "/login",
      "/register",
      "/advertise",
      "/add-your-network",
      "/contact",
      "/faq",
      "/links",
      "/privacy",
      "/terms",
    ]) {
      expect(res.body).toContain(`href="${href}"`);
    }
    expect(res.body).toContain('href="/?selectedTab=topOffers&amp;search=&amp;page=1"');
    expect(body).toContain("Help");
    expect(body).toMatch(/founded in 2009 by affiliate marketers/i);
    const [{ name }] = await t.db.query<{ name: string }>(
      (await import("#db/client.ts"))
        .sql`SELECT name FROM offers WHERE status = 'active' ORDER BY sponsored DESC, popularity DESC, id DESC LIMIT 1`,
    );
    expect(body).toContain(name.replace(/&/g, "&amp;").replace(/&amp;/g, "&"));
  });

  it("heads an offer page with the offer's name alone: a Sponsored badge sits beside it, and the description is cut between words", async () => {
    const [offer] = await t.db.query<{ id: number; slug: string; name: string }>(
      sql`SELECT id, slug, name FROM offers WHERE status = 'active' ORDER BY id LIMIT 1`,
    );
    const long = `${"Pays weekly by wire, no minimum, tier one geos only; ".repeat(5)}end`;
    await t.db.query(sql`UPDATE offers SET sponsored = true, description = ${long} WHERE id = ${offer.id}`);
    const res = await t.app.inject(`/offer/${offer.id}/${offer.slug}`);
    expect(res.statusCode).toBe(200);
    const h1 = res.body.match(/<h1[^>]*>([\s\S]*?)<\/h1>/)![1];
    expect(text(h1).trim()).toBe(offer.name.replace(/&/g, "&amp;"));
    expect(text(res.body)).toContain("Sponsored");
    const description = res.body.match(/<meta name="description" content="([^"]*)"/)![1];
    expect(description.length).toBeLessThanOrEqual(160);
    expect(description).toMatch(/(only|wire|minimum|geos)…$/);

    // Structured data: a Product with its Offer sold through the network, and a breadcrumb
    // whose steps are distinct pages (Home, the offer's vertical as a search, the offer).
    const blocks = [...res.body.matchAll(/<script type="application\/ld\+json"[^>]*>([^<]*)<\/script>/g)].map(
      (m) => JSON.parse(m[1]) as Record<string, unknown>,
    );
    const product = blocks.find((b) => b["@type"] === "Product") as {
      name: string;
      offers: {
        "@type": string;
        priceCurrency?: string;
        price?: string;
        availability: string;
        seller: { name: string };
      };
    };
    const [facts] = await t.db.query<{ amount: number | null; currency: string; network: string }>(sql`
      SELECT o.payout_amount::float8 AS amount, btrim(o.currency) AS currency, n.name AS network
      FROM offers o JOIN networks n ON n.id = o.network_id WHERE o.id = ${offer.id}`);
    expect(product.name).toBe(offer.name);
    expect(product.offers).toMatchObject({
      "@type": "Offer",
      availability: "https://schema.org/InStock",
      seller: { name: facts.network },
      ...(facts.amount === null ? {} : { price: facts.amount.toFixed(2), priceCurrency: facts.currency }),
    });
    const trail = blocks.find((b) => b["@type"] === "BreadcrumbList") as { itemListElement: { item: string }[] };
    const urls = trail.itemListElement.map((i) => new URL(i.item).pathname + new URL(i.item).search);
    expect(new Set(urls).size).toBe(urls.length);
    expect(urls.at(-1)).toBe(`/offer/${offer.id}/${offer.slug}`);
    expect(res.body).toContain('<meta property="og:type" content="product"/>');
  });

  it("serves /favicon.ico and links it, the SVG icon and the offers feed from every page", async () => {
    const icon = await t.app.inject("/favicon.ico");
    expect(icon.statusCode).toBe(200);
    // An ICO directory: reserved 0, type 1 (icon), then its images.
    expect([...icon.rawPayload.subarray(0, 4)]).toEqual([0, 0, 1, 0]);
    const home = await t.app.inject("/faq");
    const links = home.body.match(/<link [^>]*>/g)!.map((l) => l.replace(/ nonce="[^"]*"/, ""));
    expect(links).toContain('<link rel="icon" href="/favicon.ico" sizes="16x16 32x32 48x48"/>');
    expect(links).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml"/>');
    expect(links).toContain(
      '<link rel="alternate" type="application/rss+xml" title="New offers" href="/feeds/offers.xml"/>',
    );
  });

  it("renders the filters as a form that works without JavaScript: ticked options in the page, each whole list one link away", async () => {
    const [{ n }] = await t.db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM countries`);
    const countryBoxes = (html: string) => html.match(/<input type="checkbox" name="countries"[^>]*>/g) ?? [];
    // The page carries only what is ticked: two countries, both checked.
    const picked = await t.app.inject("/?selectedTab=topOffers&search=&page=1&countries=US,CA");
    expect(countryBoxes(picked.body)).toHaveLength(2);
    expect(countryBoxes(picked.body).every((box) => box.includes('checked=""'))).toBe(true);
    expect(text(picked.body)).toContain(`Show all ${n} countries`);
    const href = picked.body.match(/href="([^"]*show=countries[^"]*)"/)![1].replace(/&amp;/g, "&");
    // The link keeps the search and shows the whole list, open, with the ticks kept.
    const all = await t.app.inject(href);
    expect(all.statusCode).toBe(200);
    expect(countryBoxes(all.body)).toHaveLength(n);
    expect(countryBoxes(all.body).filter((box) => box.includes('checked=""'))).toHaveLength(2);
    expect(all.body).toMatch(/<details[^>]*data-filter="countries"[^>]*open=""/);
    expect(all.body).not.toMatch(/<details[^>]*data-filter="networks"[^>]*open=""/);
  });

  it("opens /faq in a new tab from the footer", async () => {
    const res = await t.app.inject("/");
    expect(res.body).toMatch(/<a href="\/faq" target="_blank" rel="noopener"/);
  });

  it("reserves every ad slot at its exact size", async () => {
    const res = await t.app.inject("/");
    const sizes = [...res.body.matchAll(/data-ad-size="(\d+x\d+)"/g)].map((m) => m[1]);
    const count = (s: string) => sizes.filter((x) => x === s).length;
    expect(count("728x90")).toBe(1);
    expect(count("270x70")).toBe(3);
    expect(count("250x250")).toBe(1);
    expect(count("125x125")).toBe(6);
    expect(count("370x165")).toBe(1);
    expect(res.body).toMatch(/width:728px;max-width:100%;aspect-ratio:728 \/ 90/);
  });

  it("answers an unknown path with 404 and the spec's texts", async () => {
    const res = await t.app.inject("/no/such/page");
    expect(res.statusCode).toBe(404);
    const body = text(res.body);
    expect(body).toContain("Sorry, the page you're looking for could not be found");
    expect(body).toContain("This page could not be found");
    expect(body).toContain("Click here to go back to home page");
  });

  it("serves /404 with status 404", async () => {
    const res = await t.app.inject("/404");
    expect(res.statusCode).toBe(404);
    expect(text(res.body)).toContain("Sorry, the page you're looking for could not be found");
    expect(text(res.body)).not.toContain("This page could not be found");
  });

  it("renders each layout's page", async () => {
    for (const [path, marker] of [
      ["/networks", "Enter a search term below to find networks"],
      ["/traffic-sources", "Enter a search term below to find traffic sources"],
      ["/login", 'data-region="footer-ad"'],
      ["/faq", 'aria-label="Site pages"'],
      ["/pay-per-call", 'aria-label="Sidebar"'],
    ] as const) {
      const res = await t.app.inject(path);
      expect(res.statusCode, path).toBe(200);
      expect(text(res.body) + res.body, path).toContain(marker);
    }
  });

  it("gives each public page its own title, description, canonical address and sharing tags", async () => {
    const [offer] = await t.db.query<{ id: number; slug: string }>(
      sql`SELECT id, slug FROM offers WHERE status = 'active' ORDER BY id LIMIT 1`,
    );
    const [network] = await t.db.query<{ id: number; slug: string }>(
      sql`SELECT id, slug FROM networks ORDER BY id LIMIT 1`,
    );
    const [source] = await t.db.query<{ id: number }>(sql`SELECT id FROM traffic_sources ORDER BY id LIMIT 1`);
    const pages = [
      "/",
      `/offer/${offer.id}/${offer.slug}`,
      `/network/${network.id}/${network.slug}`,
      "/networks",
      "/traffic-sources",
      `/traffic-sources/details/${source.id}`,
      "/pay-per-call",
      "/pay-per-call-offers",
    ];
    const titles = new Set<string>();
    for (const path of pages) {
      const res = await t.app.inject(path);
      expect(res.statusCode, path).toBe(200);
      const head = res.body.slice(0, res.body.indexOf("</head>"));
      titles.add(/<title>([^<]*)<\/title>/.exec(head)?.[1] ?? "");
      expect(head, path).toContain(`<link rel="canonical" href="${t.config.publicUrl}${path}"/>`);
      expect(head, path).toMatch(/<meta name="description" content="[^"]{20,}"/);
      expect(head, path).toContain('property="og:title"');
      expect(head, path).toContain(`<meta property="og:url" content="${t.config.publicUrl}${path}"/>`);
      expect(head, path).toContain('name="twitter:card"');
    }
    expect(titles.size).toBe(pages.length);
  });

  it("redirects legacy addresses permanently", async () => {
    // An old offer link takes one 301, straight to the canonical page (the old id first, else a current one).
    const [old] = await t.db.query<{ id: number; slug: string; legacyId: number }>(
      sql`SELECT id, slug, legacy_id AS "legacyId" FROM offers WHERE legacy_id IS NOT NULL ORDER BY id LIMIT 1`,
    );
    const offer = await t.app.inject(`/affiliate-offers/details/offerId/${old.legacyId}/some-old-slug`);
    expect(offer.statusCode).toBe(301);
    expect(offer.headers.location).toBe(`/offer/${old.id}/${old.slug}`);
    expect((await t.app.inject(offer.headers.location as string)).statusCode).toBe(200);
    expect((await t.app.inject("/affiliate-offers/details/offerId/987654321")).statusCode).toBe(404);
    const ts = await t.app.inject("/traffic/details/id");
    expect(ts.statusCode).toBe(301);
    expect(ts.headers.location).toBe("/traffic-sources");
  });
});
