// Search-engine visibility and content pages over the real app: per-page meta
// tags, robots.txt, the sitemap index and its paged files (validated against
// the sitemap protocol's schema), the offers feed, GET /api/links and the
// /links, /faq, /privacy and /terms pages, and HTML validity (Nu checker).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { createSitemaps } from "#core/seo/sitemap.ts";
import type { LinksPage } from "#contracts/links.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { javaAvailable, validateXml, vnuErrors, xmllintAvailable } from "../fixtures/xml-validate.ts";

const ORIGIN = "https://offers.example.com";
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 12, offers: 600, trafficSources: 5 }, env: { PUBLIC_URL: ORIGIN } });
});
afterAll(() => t?.close());

if (!xmllintAvailable)
  console.warn(
    "\n!!! xmllint not found: sitemap schema validation is SKIPPED. Install it with `apt-get install -y libxml2-utils`.\n",
  );
if (!javaAvailable)
  console.warn(
    "\n!!! java not found: the Nu HTML checker test is SKIPPED. Install it with `apt-get install -y default-jre-headless`.\n",
  );

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1].replace(/&amp;/g, "&"));
const count = async (q: ReturnType<typeof sql>) => (await t.db.query<{ n: number }>(q))[0].n;

describe("per-page meta tags", () => {
  it.each([
    ["/advertise", "Advertise with OfferAtlas | OfferAtlas"],
    ["/add-your-network", "Add your affiliate network | OfferAtlas"],
    ["/contact", "Help and support | OfferAtlas"],
    ["/faq", "Frequently asked questions | OfferAtlas"],
    ["/privacy", "Privacy policy | OfferAtlas"],
    ["/terms", "Terms of use | OfferAtlas"],
    ["/links", "All networks, traffic sources and offers | OfferAtlas"],
  ])("%s has its own title, description, canonical URL, Open Graph and Twitter tags", async (path, title) => {
    const res = await t.app.inject(path);
    expect(res.statusCode).toBe(200);
    const head = res.body.slice(0, res.body.indexOf("</head>"));
    expect(head).toContain(`<title>${title}</title>`);
    expect(head).toMatch(/<meta name="description" content="[^"]{40,}"/);
    expect(head).toContain(`<link rel="canonical" href="${ORIGIN}${path}"/>`);
    expect(head).toContain(`<meta property="og:url" content="${ORIGIN}${path}"/>`);
    expect(head).toContain(`<meta property="og:title" content="${title}"/>`);
    expect(head).toContain('<meta name="twitter:card" content="summary"/>');
    expect(head).toMatch(/"@type":"BreadcrumbList"/);
    // Exactly one title and one description: the page's own replace the site's defaults.
    expect(head.match(/<title>/g)).toHaveLength(1);
    expect(head.match(/name="description"/g)).toHaveLength(1);
  });
});

describe("link previews of listings", () => {
  it("gives a network page and its offers' pages the network's logo as their picture", async () => {
    const [n] = await t.db.query<{ id: number; slug: string; offerId: number; offerSlug: string }>(sql`
      SELECT n.id, n.slug, o.id AS "offerId", o.slug AS "offerSlug"
      FROM networks n JOIN offers o ON o.network_id = n.id AND o.status = 'active'
      WHERE n.status = 'active' ORDER BY n.id LIMIT 1`);
    const logo = "/media/network-logos/preview-test.png";
    await t.db.query(sql`UPDATE networks SET logo_url = ${logo} WHERE id = ${n.id}`);
    const image = `${ORIGIN}${logo}`;
    for (const path of [`/network/${n.id}/${n.slug}`, `/offer/${n.offerId}/${n.offerSlug}`]) {
      const res = await t.app.inject(path);
      expect(res.statusCode, path).toBe(200);
      expect(res.body, path).toContain(`<meta property="og:image" content="${image}"/>`);
    }
  });
});

describe("robots.txt", () => {
  it("allows the site, keeps crawlers out of the API and names the sitemap index", async () => {
    const res = await t.app.inject("/robots.txt");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/plain/);
    expect(res.body).toMatch(/^User-agent: \*$/m);
    expect(res.body).toMatch(/^Disallow: \/api\/$/m);
    expect(res.body).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
  });
});

describe("sitemaps", () => {
  it("serves an index of sitemap files that together list every offer, network and traffic source once", async () => {
    const index = await t.app.inject("/sitemap.xml");
    expect(index.statusCode).toBe(200);
    expect(index.headers["content-type"]).toMatch(/^application\/xml/);
    const files = locs(index.body);
    expect(files).toContain(`${ORIGIN}/sitemaps/pages/1.xml`);
    expect(files).toContain(`${ORIGIN}/sitemaps/offers/1.xml`);

    const urls: string[] = [];
    for (const file of files) {
      const res = await t.app.inject(file.slice(ORIGIN.length));
      expect(res.statusCode, file).toBe(200);
      expect(res.headers["content-type"]).toMatch(/^application\/xml/);
      urls.push(...locs(res.body));
    }
    expect(new Set(urls).size).toBe(urls.length);
    const offers = urls.filter((u) => u.startsWith(`${ORIGIN}/offer/`));
    const networks = urls.filter((u) => u.startsWith(`${ORIGIN}/network/`));
    const sources = urls.filter((u) => u.startsWith(`${ORIGIN}/traffic-sources/details/`));
    expect(offers).toHaveLength(await count(sql`SELECT count(*)::int AS n FROM offers WHERE status = 'active'`));
    expect(networks).toHaveLength(
      await count(
        sql`SELECT count(*)::int AS n FROM networks n WHERE status = 'active' AND EXISTS (SELECT 1 FROM network_properties p WHERE p.network_id = n.id AND p.identifier = 'offeratlas')`,
      ),
    );
    expect(sources).toHaveLength(
      await count(sql`SELECT count(*)::int AS n FROM traffic_sources WHERE status = 'active'`),
    );
    const [offer] = await t.db.query<{ id: number; slug: string }>(
      sql`SELECT id, slug FROM offers WHERE status = 'active' ORDER BY id LIMIT 1`,
    );
    expect(offers).toContain(`${ORIGIN}/offer/${offer.id}/${offer.slug}`);
    expect(urls).toContain(`${ORIGIN}/faq`);
  });

  it.skipIf(!xmllintAvailable)("validates against the sitemap protocol schema (index and files)", async () => {
    const index = await t.app.inject("/sitemap.xml");
    const checked = validateXml(index.body, "siteindex.xsd");
    expect(checked.ok, checked.output).toBe(true);
    for (const file of locs(index.body)) {
      const res = await t.app.inject(file.slice(ORIGIN.length));
      const r = validateXml(res.body, "sitemap.xsd");
      expect(r.ok, `${file}\n${r.output}`).toBe(true);
    }
    // The schema really is strict: an empty urlset is refused.
    expect(
      validateXml(
        '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>',
        "sitemap.xsd",
      ).ok,
    ).toBe(false);
  });

  it("pages by id range, lists only ranges that hold rows, and streams each file", async () => {
    const small = createSitemaps(t.db, { pageSize: 100 });
    // Leave a hole: offers 101-200 are paused, so range 2 disappears from the index.
    await t.db.query(sql`UPDATE offers SET status = 'paused' WHERE id BETWEEN 101 AND 200`);
    try {
      const index = await small.index("offeratlas", ORIGIN);
      const offerFiles = locs(index).filter((u) => u.includes("/sitemaps/offers/"));
      const [{ max }] = await t.db.query<{ max: number }>(
        sql`SELECT max(id)::int AS max FROM offers WHERE status = 'active'`,
      );
      const expected = Array.from({ length: Math.ceil(max / 100) }, (_, i) => i + 1).filter((p) => p !== 2);
      expect(offerFiles).toEqual(expected.map((p) => `${ORIGIN}/sitemaps/offers/${p}.xml`));
      expect(await small.page("offeratlas", ORIGIN, "offers", 2)).toBeNull();

      const stream = await small.page("offeratlas", ORIGIN, "offers", 3);
      const xml = await new Response(stream).text();
      const ids = locs(xml).map((u) => Number(/\/offer\/(\d+)\//.exec(u)![1]));
      expect(ids.length).toBeGreaterThan(0);
      expect(ids.every((id) => id > 200 && id <= 300)).toBe(true);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      if (xmllintAvailable) expect(validateXml(xml, "sitemap.xsd").ok).toBe(true);
    } finally {
      await t.db.query(sql`UPDATE offers SET status = 'active' WHERE id BETWEEN 101 AND 200`);
    }
  });

  it("answers 404 for a kind, page or file name that names no sitemap", async () => {
    for (const path of [
      "/sitemaps/offers/999.xml",
      "/sitemaps/users/1.xml",
      "/sitemaps/offers/0.xml",
      "/sitemaps/offers/1.txt",
      "/sitemaps/pages/2.xml",
    ]) {
      const res = await t.app.inject(path);
      expect(res.statusCode, path).toBe(404);
    }
  });
});

describe("offers feed", () => {
  it("lists the newest offers as RSS 2.0", async () => {
    const res = await t.app.inject("/feeds/offers.xml");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/rss\+xml/);
    expect(res.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<rss version="2.0"/);
    const items = [...res.body.matchAll(/<item>[\s\S]*?<\/item>/g)].map((m) => m[0]);
    expect(items).toHaveLength(50);
    const [newest] = await t.db.query<{ id: number; slug: string }>(
      sql`SELECT id, slug FROM offers WHERE status = 'active' ORDER BY created_at DESC, id DESC LIMIT 1`,
    );
    expect(items[0]).toContain(`<link>${ORIGIN}/offer/${newest.id}/${newest.slug}</link>`);
    expect(res.body).toContain(`<atom:link href="${ORIGIN}/feeds/offers.xml" rel="self" type="application/rss+xml"/>`);
  });

  it("filters by vertical (slug or name), and answers 404 for an unknown one", async () => {
    const [cat] = await t.db.query<{ id: number; slug: string; name: string }>(
      sql`SELECT c.id, c.slug, c.name FROM categories c WHERE EXISTS (SELECT 1 FROM offers o WHERE c.id = ANY (o.category_ids) AND o.status = 'active') ORDER BY c.id LIMIT 1`,
    );
    const res = await t.app.inject(`/feeds/offers.xml?vertical=${encodeURIComponent(cat.slug)}`);
    expect(res.statusCode).toBe(200);
    const links = [...res.body.matchAll(/<item>[\s\S]*?<link>[^<]*\/offer\/(\d+)\//g)].map((m) => Number(m[1]));
    expect(links.length).toBeGreaterThan(0);
    const rows = await t.db.query<{ id: number; category_ids: number[] }>(
      sql`SELECT id, category_ids FROM offers WHERE id = ANY (${`{${links.join(",")}}`}::bigint[])`,
    );
    expect(rows).toHaveLength(new Set(links).size);
    expect(rows.every((r) => r.category_ids.includes(cat.id))).toBe(true);
    expect(res.body).toContain(`<title>New ${cat.name.replace(/&/g, "&amp;")} offers | OfferAtlas</title>`);

    const byName = await t.app.inject(`/feeds/offers.xml?vertical=${encodeURIComponent(cat.name.toUpperCase())}`);
    expect(byName.statusCode).toBe(200);
    expect((await t.app.inject("/feeds/offers.xml?vertical=no-such-vertical")).statusCode).toBe(404);
  });
});

describe("GET /api/links", () => {
  it("pages through every network, traffic source and offer exactly once", async () => {
    const first = (await t.app.inject("/api/links?page=1&site=offeratlas")).json<LinksPage>();
    expect(first.page).toBe(1);
    const seen: string[] = [];
    for (let p = 1; p <= first.totalPages; p++) {
      const res = await t.app.inject(`/api/links?page=${p}&site=offeratlas`);
      expect(res.statusCode).toBe(200);
      const body = res.json<LinksPage>();
      const n = body.networks.length + body.trafficSources.length + body.offers.length;
      expect(n).toBe(p < first.totalPages ? first.pageSize : first.total - first.pageSize * (first.totalPages - 1));
      seen.push(
        ...body.networks.map((x) => x.url),
        ...body.trafficSources.map((x) => x.url),
        ...body.offers.map((x) => x.url),
      );
    }
    expect(seen).toHaveLength(first.total);
    expect(new Set(seen).size).toBe(first.total);
    const active = await count(sql`SELECT count(*)::int AS n FROM offers WHERE status = 'active'`);
    expect(seen.filter((u) => u.startsWith("/offer/"))).toHaveLength(active);
    expect(first.networks[0].url).toMatch(/^\/network\/\d+\//);
  });

  it("refuses a bad page and an unknown site, and answers an empty page past the end", async () => {
    expect((await t.app.inject("/api/links?page=0")).json().message).toBe("Page must be greater than or equal to 1");
    expect((await t.app.inject("/api/links?page=x")).statusCode).toBe(400);
    expect((await t.app.inject("/api/links?site=nope")).statusCode).toBe(400);
    const past = (await t.app.inject("/api/links?page=9999")).json<LinksPage>();
    expect(past.offers).toEqual([]);
  });
});

describe("content pages", () => {
  it("renders /links with every listing of the page and pagination", async () => {
    const res = await t.app.inject("/links");
    expect(res.statusCode).toBe(200);
    const api = (await t.app.inject("/api/links?page=1")).json<{ networks: { url: string }[]; totalPages: number }>();
    for (const n of api.networks) expect(res.body).toContain(`href="${n.url}"`);
    if (api.totalPages > 1) expect(res.body).toContain('href="/links?page=2"');
    expect((await t.app.inject("/links?page=9999")).statusCode).toBe(404);
    expect((await t.app.inject("/links?page=abc")).statusCode).toBe(404);
  });

  it("renders the FAQ from Markdown as an accordion with FAQPage structured data", async () => {
    const res = await t.app.inject("/faq");
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<details id="how-do-i-get-my-network-listed"');
    expect(res.body).toContain("<summary");
    const ld = [...res.body.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) =>
      JSON.parse(m[1]),
    );
    const faq = ld.find((d) => d["@type"] === "FAQPage");
    expect(faq.mainEntity.length).toBeGreaterThan(10);
    expect(faq.mainEntity[0]).toMatchObject({ "@type": "Question", name: "How do I find offers for my traffic?" });
    expect(faq.mainEntity[0].acceptedAnswer.text).toContain("Clear Filters");
  });

  it("renders privacy and terms from Markdown", async () => {
    const privacy = await t.app.inject("/privacy");
    expect(privacy.body).toContain("<h1");
    expect(privacy.body).toContain("Privacy policy");
    expect(privacy.body).toContain("<h2>Your rights</h2>");
    const terms = await t.app.inject("/terms");
    expect(terms.body).toContain("<h2>Reviews and submissions</h2>");
  });
});

describe.skipIf(!javaAvailable)("HTML validity (Nu HTML checker)", () => {
  it("finds no errors in the lead form and content pages", async () => {
    const pages = [
      "/faq",
      "/add-your-network",
      "/advertise",
      "/contact",
      "/links",
      "/privacy",
      "/terms",
      "/",
      "/networks",
      "/traffic-sources",
      "/pay-per-call",
      "/login",
      "/register",
    ];
    const [offer] = await t.db.query<{ id: number; slug: string }>(
      sql`SELECT id, slug FROM offers WHERE status = 'active' ORDER BY id LIMIT 1`,
    );
    const [network] = await t.db.query<{ id: number; slug: string }>(
      sql`SELECT id, slug FROM networks ORDER BY id LIMIT 1`,
    );
    pages.push(`/offer/${offer.id}/${offer.slug}`, `/network/${network.id}/${network.slug}`);
    const docs: Record<string, string> = {};
    for (const p of pages) docs[p] = (await t.app.inject(p)).body;
    // A known-bad document proves the checker really reports errors.
    docs.broken =
      "<!DOCTYPE html><html lang=en><head><title>x</title></head><body><p><div>nested</div></p><img></body></html>";
    const report = vnuErrors(docs);
    expect(report.broken.length).toBeGreaterThan(0);
    for (const p of pages)
      expect(report[p].map((e) => `${p}:${e.lastLine}: ${e.message} ${e.extract ?? ""}`)).toEqual([]);
  }, 120_000);
});
