// The feed connector (docs/supply/feeds.md): the template's mapping of one record,
// the reader's streaming, and whole syncs of CSV and JSON feeds by URL and by
// upload, with column mappings, auth, retries, malformed rows and idempotency;
// and the column mapping's validation when a feed source is added or edited.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import type { OfferSource } from "#contracts/supply.ts";
import { AUTH_COOKIE } from "#core/auth/sessions.ts";
import { feedPages, JSON_FEED_MAX_BYTES } from "#core/supply/feed-read.ts";
import { feedSettingsProblem } from "#core/supply/feed-template.ts";
import { mapFeedOffer } from "#core/supply/platforms/feed.ts";
import { createOfferSync } from "#core/supply/sync.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";
import { feedOffer, startFakeFeed, type FakeFeed } from "../fakes/feed.ts";
import { addSource, SECRETS_KEY, sourceState } from "./helpers.ts";

const FEED_KEY = "feed-key-Qx81";
const DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "offeratlas-feed-"));

let t: TestApp;
let admin: Awaited<ReturnType<typeof signInWithRoles>>;
const fakes: FakeFeed[] = [];
const fake = async (count: number, apiKey?: string) => {
  const server = await startFakeFeed({ count, apiKey });
  fakes.push(server);
  return server;
};
const quiet = { info: () => {}, warn: () => {} };

beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 2, offers: 10, trafficSources: 1 }, env: { SECRETS_KEY, DATA_DIR } });
  admin = await signInWithRoles(t, ["admin"]);
});
afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  await t?.close();
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
});

const syncer = () =>
  createOfferSync(t.db, {
    secrets: t.app.services.secrets,
    onCatalogueChanged: () => {},
    log: quiet,
    http: { retryBaseMs: 5, retryMaxMs: 100 },
  });

/** A feed source without a key unless given one. */
const feedSource = (url: string, settings: Record<string, unknown> = {}, apiKey: string | null = null) =>
  addSource(t.db, t.app.services.secrets, { url, platform: "feed", apiKey, settings });

const offerOf = async (sourceId: number, externalId: string) => {
  const [row] = await t.db.query<{
    name: string;
    description: string;
    payoutType: string;
    payoutAmount: number | null;
    payoutPercent: number | null;
    currency: string;
    countries: string[];
    previewUrl: string | null;
    landingDomain: string | null;
    status: string;
  }>(sql`
    SELECT name, description, payout_type AS "payoutType", payout_amount AS "payoutAmount",
      payout_percent AS "payoutPercent", btrim(currency) AS currency, countries, preview_url AS "previewUrl",
      landing_domain AS "landingDomain", status
    FROM offers WHERE source_id = ${sourceId} AND external_id = ${externalId}`);
  return row;
};
const countOf = async (sourceId: number) =>
  (await t.db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM offers WHERE source_id = ${sourceId}`))[0].n;

const template = (fields: Record<string, unknown>) => ({ ...feedOffer(1), ...fields });
const mapped = (fields: Record<string, unknown>) => {
  const result = mapFeedOffer(template(fields));
  return result.ok ? result.offer : result.reason;
};

describe("mapFeedOffer", () => {
  it("reads the directory's payout types in any case, a trailing % as a share of the sale, and pay_per_call", () => {
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [
        { payout_type: "CPA", payout: "25.555" },
        { payoutType: "CPA", payoutAmount: 25.56, payoutPercent: null },
      ],
      [
        { payout_type: "cpl", payout: "4" },
        { payoutType: "CPL", payoutAmount: 4 },
      ],
      [
        { payout_type: "Cpi", payout: "1.2" },
        { payoutType: "CPI", payoutAmount: 1.2 },
      ],
      [
        { payout_type: "cpc", payout: 0.4 },
        { payoutType: "CPC", payoutAmount: 0.4 },
      ],
      [
        { payout_type: "CPS", payout: "12.5%" },
        { payoutType: "CPS", payoutAmount: null, payoutPercent: 12.5 },
      ],
      [
        { payout_type: "CPS", payout: "30" },
        { payoutType: "CPS", payoutAmount: 30, payoutPercent: null },
      ],
      [
        { payout_type: "Rev Share", payout: " 40 % " },
        { payoutType: "revshare", payoutPercent: 40 },
      ],
      [
        { payout_type: "PAY_PER_CALL", payout: "55" },
        { payoutType: "pay-per-call", payoutAmount: 55 },
      ],
      [
        { payout_type: "", pay_per_call: "true", payout: "35" },
        { payoutType: "pay-per-call", payoutAmount: 35 },
      ],
      // An explicit type wins over the flag.
      [{ payout_type: "CPL", pay_per_call: "TRUE", payout: "9" }, { payoutType: "CPL" }],
    ];
    for (const [fields, expected] of cases) expect(mapped(fields), JSON.stringify(fields)).toMatchObject(expected);
    expect(mapped({ payout_type: "CPA", payout: "10%" })).toBe("invalid payout"); // a share only for CPS/revshare
    expect(mapped({ payout_type: "CPA", payout: "ten" })).toBe("invalid payout");
    expect(mapped({ payout_type: "CPA", payout: "-3" })).toBe("invalid payout");
    expect(mapped({ payout_type: "CPA", payout: "" })).toBe("invalid payout");
    expect(mapped({ payout_type: "CPS", payout: "1000%" })).toBe("invalid payout");
    expect(mapped({ payout_type: "CPM", payout: "3" })).toBe("unsupported payout_type");
    expect(mapped({ payout_type: "", pay_per_call: "false" })).toBe("missing payout_type");
  });

  it("reads the currency, the |-separated countries and verticals, the preview address and the flags", () => {
    expect(
      mapped({
        currency: " gbp ",
        countries: "us| CA |ca|Narnia||xx1",
        verticals: "Sweepstakes| Finance |Finance|",
        preview_url: "https://www.acme.example/go?a=1",
        mobile: "yes",
        pay_per_call: "0",
      }),
    ).toMatchObject({
      currency: "GBP",
      countries: ["CA", "US"],
      categories: ["Finance", "Sweepstakes"],
      previewUrl: "https://www.acme.example/go?a=1",
      landingDomain: "acme.example",
      status: "active",
      mobile: true,
      payPerCall: false,
    });
    // A JSON feed may give lists, numbers and booleans unquoted.
    const json = mapFeedOffer({
      external_id: 77,
      name: "Json",
      payout: 12,
      payout_type: "CPA",
      currency: "EUR",
      countries: ["de", "FR"],
      verticals: ["Gaming"],
      mobile: true,
      pay_per_call: false,
    });
    expect(json.ok && json.offer).toMatchObject({ externalId: "77", countries: ["DE", "FR"], categories: ["Gaming"] });
    expect(mapped({ currency: "XYZ" })).toBe("unknown currency");
    expect(mapped({ currency: "" })).toBe("unknown currency");
    expect(mapped({ mobile: "maybe" })).toBe("invalid true/false value");
    expect(mapped({ pay_per_call: "2" })).toBe("invalid true/false value");
    expect(mapped({ preview_url: "javascript:alert(1)" })).toMatchObject({ previewUrl: null, landingDomain: null });
  });

  it("skips malformed records with a few stable reasons and never throws", () => {
    const hostile: unknown[] = [
      null,
      "OF-1,Name",
      [],
      {},
      template({ external_id: "   " }),
      template({ external_id: "x".repeat(101) }),
      template({ external_id: { id: 1 } }),
      template({ name: "" }),
      template({ name: "\ud800" }),
    ];
    expect(hostile.map((raw) => (mapFeedOffer(raw) as { reason?: string }).reason)).toEqual([
      "not an object",
      "not an object",
      "not an object",
      "missing external_id",
      "missing external_id",
      "missing external_id",
      "missing external_id",
      "missing name",
      "missing name",
    ]);
    // Text that a spreadsheet would run as a formula is kept as text: the directory never evaluates it.
    expect(mapped({ name: '=HYPERLINK("http://evil.example","Click")', description: "+1-2" })).toMatchObject({
      name: '=HYPERLINK("http://evil.example","Click")',
      description: "+1-2",
    });
  });
});

describe("feedSettingsProblem", () => {
  it("accepts the template, a complete mapping, a format and a delimiter; names what is wrong otherwise", () => {
    const complete = { external_id: "ID", name: "Title", payout: "Pay", payout_type: "Model", currency: "Cur" };
    expect(feedSettingsProblem({})).toBeUndefined();
    expect(feedSettingsProblem({ columns: complete, format: "csv", delimiter: ";" })).toBeUndefined();
    expect(feedSettingsProblem({ delimiter: "tab" })).toBeUndefined();
    expect(feedSettingsProblem({ columns: { ...complete, offer_url: "Link" } })).toMatch(
      /^settings.columns names unknown template field offer_url; the fields are external_id, name,/,
    );
    expect(feedSettingsProblem({ columns: { external_id: "ID", name: "Title" } })).toBe(
      "settings.columns must name the column of every required field; missing: payout, payout_type, currency",
    );
    expect(feedSettingsProblem({ columns: { ...complete, name: "" } })).toBe(
      "settings.columns.name must be a column name of 1 to 200 characters",
    );
    expect(feedSettingsProblem({ columns: { ...complete, name: "ID" } })).toBe(
      "settings.columns must give each template field its own column",
    );
    expect(feedSettingsProblem({ columns: ["ID"] })).toBe(
      "settings.columns must map template fields to the feed's column names",
    );
    expect(feedSettingsProblem({ format: "xml" })).toBe("settings.format must be one of csv, json");
    expect(feedSettingsProblem({ delimiter: "|" })).toBe('settings.delimiter must be ",", ";" or a tab');
  });
});

describe("feedPages", () => {
  it("streams a CSV: the first pages arrive while the download is still held midway", async () => {
    const server = await fake(5000);
    server.state.holdAfterRows = 1200;
    const pages = feedPages({ endpoint: server.url, apiKey: null, settings: {} })[Symbol.asyncIterator]();
    const first = await pages.next();
    const second = await pages.next();
    expect(first.value).toHaveLength(500);
    expect(second.value).toHaveLength(500);
    // Both pages were read while the server had sent at most 1,200 of the 5,000 rows.
    expect(server.state.rowsSent).toBeLessThanOrEqual(1200);
    expect((first.value as Record<string, unknown>[])[0]).toEqual(feedOffer(1));
    server.release();
    let rest = 0;
    for (let page = await pages.next(); !page.done; page = await pages.next()) rest += page.value.length;
    expect(rest).toBe(4000);
  });

  it("refuses a JSON feed over the size limit without reading it", async () => {
    const file = path.join(DATA_DIR, "huge.json");
    fs.writeFileSync(file, "[");
    fs.truncateSync(file, JSON_FEED_MAX_BYTES + 1); // sparse: nothing large is written
    await expect(async () => {
      for await (const _ of feedPages({ endpoint: pathToFileURL(file).href, apiKey: null, settings: {} }));
    }).rejects.toThrow("The JSON feed is larger than 50 MB: publish it as CSV");
    fs.rmSync(file);
  });
});

describe("offer sync (feed)", () => {
  it("syncs 5,000 offers of the exact template with no mapping, in pages; a second run changes nothing", async () => {
    const server = await fake(5000);
    const { sourceId } = await feedSource(server.url);
    const sync = syncer();
    const first = await sync.run(sourceId);
    expect(first).toMatchObject({ status: "succeeded", seen: 5000, new: 5000, skipped: 0 });
    expect(server.state.requests).toBe(1);
    expect(await countOf(sourceId)).toBe(5000);
    expect(await offerOf(sourceId, "OF-1")).toEqual({
      name: "Feed Offer 1",
      description: 'Offer 1, for "everyone"',
      payoutType: "CPS",
      payoutAmount: null,
      payoutPercent: 6,
      currency: "USD",
      countries: ["CA", "GB"],
      previewUrl: "https://www.brand-1.example.com/landing?x=1",
      landingDomain: "brand-1.example.com",
      status: "active",
    });
    expect(await offerOf(sourceId, "OF-4")).toMatchObject({ payoutType: "pay-per-call", payoutAmount: 14 });
    // The template's flags reach the offers table (the Mobile and Pay Per Call tabs read them).
    const flags = await t.db.query<{ externalId: string; mobile: boolean; ppc: boolean }>(sql`
      SELECT external_id AS "externalId", mobile, ppc FROM offers
      WHERE source_id = ${sourceId} AND external_id IN ('OF-3', 'OF-4') ORDER BY external_id`);
    expect(flags).toEqual([
      { externalId: "OF-3", mobile: false, ppc: false },
      { externalId: "OF-4", mobile: true, ppc: true },
    ]);
    expect(await offerOf(sourceId, "OF-6")).toMatchObject({ payoutType: "CPS", payoutPercent: 11, currency: "EUR" });
    expect(await offerOf(sourceId, "OF-5")).toMatchObject({ payoutType: "CPA", payoutAmount: 15 });

    const second = await sync.run(sourceId);
    expect(second).toMatchObject({ status: "succeeded", seen: 5000, new: 0, changed: 0, unchanged: 5000, retired: 0 });

    // A payout moves and an offer leaves the feed: one change, one miss.
    server.state.versions.set(5, 2);
    server.state.removed.add(10);
    const third = await sync.run(sourceId);
    expect(third).toMatchObject({ status: "succeeded", seen: 4999, changed: 1, unchanged: 4998 });
    expect(await offerOf(sourceId, "OF-5")).toMatchObject({ payoutAmount: 17 });
  });

  it("queues the feed's verticals for the console under the platform 'feed'", async () => {
    const server = await fake(8);
    const { sourceId } = await feedSource(server.url);
    expect(await syncer().run(sourceId)).toMatchObject({ status: "succeeded", new: 8 });
    const queued = await t.db.query<{ name: string }>(
      sql`SELECT name FROM platform_categories WHERE platform = 'feed' ORDER BY name`,
    );
    expect(queued.map((q) => q.name)).toEqual(["Finance", "Gaming", "Health & Beauty", "Sweepstakes"]);
  });

  it("syncs another layout through the column mapping saved on the source (semicolons, a BOM)", async () => {
    const server = await fake(40);
    Object.assign(server.state, {
      headers: { external_id: "Offer ID", name: "Title", payout: "Payout", payout_type: "Model", currency: "Cur" },
      delimiter: ";",
      bom: true,
    });
    server.state.overrides.set(3, { name: "Semi; colon" });
    const { sourceId } = await feedSource(server.url);
    const sync = syncer();
    // Without the mapping the header lacks the template's required columns: the run fails and says which.
    const unmapped = await sync.run(sourceId);
    expect(unmapped.status).toBe("failed");
    expect(unmapped.error).toContain('The feed\'s header has no column "external_id", "name"');

    const source = await t.app.services.offerSources.get(sourceId);
    await t.app.services.feedFiles.saveLayout({ siteId: t.config.siteId, userId: admin.user.id }, sourceId, {
      updatedAt: source.updatedAt,
      columns: { external_id: "Offer ID", name: "Title", payout: "Payout", payout_type: "Model", currency: "Cur" },
      delimiter: ";",
    });
    const mappedRun = await sync.run(sourceId);
    expect(mappedRun).toMatchObject({ status: "succeeded", seen: 40, new: 40, skipped: 0 });
    expect(await offerOf(sourceId, "OF-3")).toMatchObject({ name: "Semi; colon", payoutType: "revshare" });
    expect(await sourceState(t.db, sourceId)).toEqual({ state: "ok", lastError: null });
  });

  it("syncs a JSON feed, bare or as { offers }, with a key mapping", async () => {
    const server = await fake(30);
    server.state.headers = { external_id: "id", name: "title" };
    const columns = {
      external_id: "id",
      name: "title",
      payout: "payout",
      payout_type: "payout_type",
      currency: "currency",
    };
    const { sourceId } = await feedSource(server.jsonUrl, { columns });
    const sync = syncer();
    expect(await sync.run(sourceId)).toMatchObject({ status: "succeeded", seen: 30, new: 30, skipped: 0 });
    expect(await offerOf(sourceId, "OF-2")).toMatchObject({
      name: "Feed Offer 2",
      payoutType: "CPL",
      payoutAmount: 12,
    });
    server.state.wrapJson = true;
    expect(await sync.run(sourceId)).toMatchObject({ status: "succeeded", unchanged: 30 });
    server.state.body = '{"items": []}';
    const wrong = await sync.run(sourceId);
    expect(wrong).toMatchObject({ status: "failed" });
    // The literal body is served as text/csv at a .json address: the extension decides.
    expect(wrong.error).toBe('The JSON feed must be a list of offers or { "offers": [...] }');
  });

  it("sends the API key as a Bearer token; a refused key marks the source failing with a clear message", async () => {
    const server = await fake(5, FEED_KEY);
    const { sourceId } = await feedSource(server.url);
    const refused = await syncer().run(sourceId);
    expect(refused).toMatchObject({ status: "failed" });
    expect(refused.error).toBe(
      "The feed refused the request without an API key (401): if the feed needs a key, add it to the source as its API key (sent as a Bearer token).",
    );
    expect(await sourceState(t.db, sourceId)).toEqual({ state: "failing", lastError: refused.error });
    expect(server.state.requests).toBe(1); // 401 is not retried

    const keyed = await feedSource(server.url, {}, FEED_KEY);
    expect(await syncer().run(keyed.sourceId)).toMatchObject({ status: "succeeded", new: 5 });
    expect(server.state.authorizations.at(-1)).toBe(`Bearer ${FEED_KEY}`);

    const wrongKey = await feedSource(server.url, {}, "not-the-key");
    const run = await syncer().run(wrongKey.sourceId);
    expect(run.error).toBe("The feed refused the API key (401): check the source's API key (sent as a Bearer token).");
    expect(JSON.stringify(run)).not.toContain("not-the-key");
  });

  it("retries 429 and 5xx answers, then gives up with the last fault", async () => {
    const server = await fake(12);
    const { sourceId } = await feedSource(server.url);
    server.fail(429, 1, "0");
    server.fail(500, 2);
    expect(await syncer().run(sourceId)).toMatchObject({ status: "succeeded", new: 12 });
    expect(server.state.requests).toBe(4);

    server.fail(500, 4);
    const run = await syncer().run(sourceId);
    expect(run).toMatchObject({ status: "failed" });
    expect(run.error).toBe("The feed answered 500 on the feed file; gave up after 4 attempts");
    expect(await countOf(sourceId)).toBe(12); // a failed run retires nothing
  });

  it("skips malformed rows counted by reason, and keeps quotes, line breaks and formula-looking text as text", async () => {
    const server = await fake(0);
    const header =
      "external_id,name,description,payout,payout_type,currency,countries,verticals,preview_url,mobile,pay_per_call";
    server.state.body = [
      "\uFEFF" + header,
      'A1,"Quoted ""name""","line one\r\nline two",10,CPA,USD,US|CA,Finance,https://a.example/,true,false',
      "A2,Bad payout,,ten,CPA,USD,US,,,false,false",
      "A3,Bad currency,,10,CPA,XYZ,US,,,false,false",
      ",No id,,10,CPA,USD,US,,,false,false",
      'A4,"=HYPERLINK(""http://evil.example"")",@SUM(1),5,cpl,eur,,,,false,false',
      "A5,Short row",
      "A6,Another bad payout,,-1,CPA,USD,US,,,false,false",
      "",
    ].join("\r\n");
    const { sourceId } = await feedSource(server.url);
    const run = await syncer().run(sourceId);
    expect(run).toMatchObject({ status: "succeeded", seen: 7, new: 2, skipped: 5 });
    expect(run.skippedReasons).toEqual({
      "invalid payout": 2,
      "unknown currency": 1,
      "missing external_id": 1,
      "missing payout_type": 1, // the short row
    });
    expect(await offerOf(sourceId, "A1")).toMatchObject({ name: 'Quoted "name"', description: "line one line two" });
    expect(await offerOf(sourceId, "A4")).toMatchObject({
      name: '=HYPERLINK("http://evil.example")',
      description: "@SUM(1)",
      currency: "EUR",
      payoutType: "CPL",
    });
    const [stored] = await t.db.query<{ skippedReasons: Record<string, number> }>(
      sql`SELECT skipped_reasons AS "skippedReasons" FROM offer_sync_runs WHERE id = ${run.runId}`,
    );
    expect(stored.skippedReasons).toEqual(run.skippedReasons);
  });

  it("fails a CSV whose quoting loses the parser its place, without retiring what it holds", async () => {
    const server = await fake(6);
    const { sourceId } = await feedSource(server.url, {}, null);
    const sync = createOfferSync(t.db, {
      secrets: t.app.services.secrets,
      onCatalogueChanged: () => {},
      log: quiet,
    });
    await t.db.query(sql`UPDATE offer_sources SET retire_after_runs = 1 WHERE id = ${sourceId}`);
    expect(await sync.run(sourceId)).toMatchObject({ status: "succeeded", new: 6 });
    server.state.body = `${server.csv().split("\r\n").slice(0, 3).join("\r\n")}\r\nOF-9,"never closed,1,CPA,USD\r\nOF-10,x,,1,CPA,USD,,,,false,false\r\n`;
    const run = await sync.run(sourceId);
    expect(run.status).toBe("failed");
    expect(run.error).toMatch(/^The feed is not valid CSV: Quote Not Closed/);
    expect(await countOf(sourceId)).toBe(6);
    const [active] = await t.db.query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM offers WHERE source_id = ${sourceId} AND status = 'active'`,
    );
    expect(active.n).toBe(6);

    server.state.body = "";
    expect((await sync.run(sourceId)).error).toBe("The feed is empty: it has no header line");
  });

  it("syncs an uploaded file (stored under DATA_DIR/feeds, endpoint set with an audit row); a new upload replaces it", async () => {
    const server = await fake(25);
    const { sourceId } = await feedSource("https://feeds.example.com/offers.csv");
    const editor = { siteId: t.config.siteId, userId: admin.user.id };
    const files = t.app.services.feedFiles;
    let source: OfferSource = await t.app.services.offerSources.get(sourceId);
    source = await files.upload(editor, sourceId, {
      updatedAt: source.updatedAt,
      filename: "Offers.CSV",
      bytes: Buffer.from(server.csv()),
    });
    const first = new URL(source.endpoint);
    expect(first.protocol).toBe("file:");
    expect(path.dirname(first.pathname)).toBe(path.join(DATA_DIR, "feeds"));
    expect(path.basename(first.pathname)).toMatch(new RegExp(`^source-${sourceId}-[0-9a-f-]{36}\\.csv$`));
    expect(await syncer().run(sourceId)).toMatchObject({ status: "succeeded", new: 25 });
    const audit = await t.db.query<{ after: { endpoint: string } }>(sql`
      SELECT after FROM audit_log WHERE subject_type = 'offer_source' AND subject_id = ${sourceId}
        AND action = 'offer_source.update' ORDER BY id`);
    expect(audit.map((a) => a.after.endpoint)).toEqual([source.endpoint]);

    server.state.removed.add(1);
    server.state.wrapJson = true;
    const json = await (await fetch(server.jsonUrl)).text();
    source = await t.app.services.offerSources.get(sourceId); // the run saved the source's state
    source = await files.upload(editor, sourceId, {
      updatedAt: source.updatedAt,
      filename: "offers.json",
      bytes: Buffer.from(json),
    });
    expect(source.endpoint).toMatch(/\.json$/);
    expect(fs.existsSync(first)).toBe(false); // the previous upload is removed
    expect(await syncer().run(sourceId)).toMatchObject({ status: "succeeded", seen: 24, unchanged: 24 });

    // A stale edit, a wrong extension, an empty file, bytes that are not UTF-8, a source that is not a feed.
    const stale = files.upload(editor, sourceId, {
      updatedAt: "2020-01-01T00:00:00.000Z",
      filename: "a.csv",
      bytes: Buffer.from("x"),
    });
    await expect(stale).rejects.toMatchObject({ status: 409 });
    const refusal = async (file: { filename: string; bytes: Buffer }) => {
      try {
        await files.upload(editor, sourceId, { updatedAt: source.updatedAt, ...file });
      } catch (err) {
        return (err as { issues?: { message: string }[] }).issues?.[0]?.message;
      }
    };
    expect(await refusal({ filename: "offers.xlsx", bytes: Buffer.from("x") })).toBe(
      "The feed file must be a .csv or .json file",
    );
    expect(await refusal({ filename: "offers.csv", bytes: Buffer.alloc(0) })).toBe("The feed file is empty");
    expect(await refusal({ filename: "offers.csv", bytes: Buffer.from([0xff, 0xfe, 0x00]) })).toBe(
      "The feed file must be UTF-8 text",
    );
    expect(
      fs.readdirSync(path.join(DATA_DIR, "feeds")).filter((f) => f.startsWith(`source-${sourceId}-`)),
    ).toHaveLength(1);
    const everflow = await addSource(t.db, t.app.services.secrets, { url: server.url });
    await expect(
      files.upload(editor, everflow.sourceId, { updatedAt: "x", filename: "a.csv", bytes: Buffer.from("x") }),
    ).rejects.toMatchObject({ status: 400, message: "Only feed sources take a feed file or a column mapping" });
  });
});

describe("/api/admin/sources: a feed's settings", () => {
  const post = (payload: object) =>
    t.app.inject({ method: "POST", url: "/api/admin/sources", headers: admin.headers, payload });

  it("refuses a column mapping with an unknown field or without a required one (400 with the message)", async () => {
    const [{ id }] = await t.db.query<{ id: number }>(sql`SELECT id FROM networks ORDER BY id LIMIT 1`);
    const base = { networkId: id, platform: "feed", endpoint: "https://feeds.example.com/o.csv" };
    const cases: [object, string][] = [
      [
        { columns: { external_id: "ID", name: "T", payout: "P", payout_type: "M", currency: "C", url: "U" } },
        "settings.columns names unknown template field url",
      ],
      [
        { columns: { external_id: "ID", name: "T" } },
        "settings.columns must name the column of every required field; missing: payout, payout_type, currency",
      ],
      [{ delimiter: "|" }, 'settings.delimiter must be ",", ";" or a tab'],
    ];
    for (const [settings, message] of cases) {
      const res = await post({ ...base, settings });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ message: string }>().message).toContain(message);
    }
    // Other platforms' settings are theirs: the feed's rules do not apply.
    const everflow = await post({ ...base, platform: "everflow", settings: { columns: "anything" } });
    expect(everflow.statusCode, everflow.body).toBe(201);

    const good = await post({
      ...base,
      settings: { columns: { external_id: "ID", name: "T", payout: "P", payout_type: "M", currency: "C" } },
    });
    expect(good.statusCode, good.body).toBe(201);
    const created = good.json<OfferSource>();
    const bad = await t.app.inject({
      method: "PUT",
      url: `/api/admin/sources/${created.id}`,
      headers: admin.headers,
      payload: { updatedAt: created.updatedAt, settings: { columns: { name: "T" } } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain("missing: external_id, payout, payout_type, currency");
    const edited = await t.app.inject({
      method: "PUT",
      url: `/api/admin/sources/${created.id}`,
      headers: admin.headers,
      payload: { updatedAt: created.updatedAt, settings: { format: "csv" } },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<OfferSource>().settings).toEqual({ format: "csv" });
  });
});

describe("/admin/sources/:id/feed", () => {
  const cookieOf = (account: { headers: { authorization: string } }) =>
    `${AUTH_COOKIE}=${account.headers.authorization.replace("Bearer ", "")}`;
  const post = async (url: string, form: FormData, cookie = cookieOf(admin)) => {
    const request = new Request("http://page.test", { method: "POST", body: form });
    return t.app.inject({
      method: "POST",
      url,
      headers: { cookie, "content-type": request.headers.get("content-type")! },
      payload: Buffer.from(await request.arrayBuffer()),
    });
  };

  it("uploads a feed file and saves a layout through the page's forms; admins only", async () => {
    const server = await fake(12);
    const { sourceId } = await feedSource("https://feeds.example.com/offers.csv");
    const url = `/admin/sources/${sourceId}/feed`;
    const page = await t.app.inject({ url, headers: { cookie: cookieOf(admin) } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('href="/offer-feed-template.csv"');
    expect(page.body).toContain('name="columns.external_id"');
    const moderator = await signInWithRoles(t, ["moderator"]);
    expect((await t.app.inject({ url, headers: { cookie: cookieOf(moderator) } })).statusCode).toBe(403);

    const upload = (file: File, cookie?: string) => {
      const form = new FormData();
      form.set("intent", "upload");
      form.set("updatedAt", "");
      form.set("file", file);
      return t.app.services.offerSources.get(sourceId).then((s) => {
        form.set("updatedAt", s.updatedAt);
        return post(url, form, cookie);
      });
    };
    expect((await upload(new File([server.csv()], "offers.csv"), cookieOf(moderator))).statusCode).toBe(403);
    const refused = await upload(new File(["a,b"], "offers.pdf"));
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain("The feed file must be a .csv or .json file");
    const done = await upload(new File([server.csv()], "offers.csv", { type: "text/csv" }));
    expect(done.statusCode, done.body.slice(0, 300)).toBe(200);
    expect(done.body).toContain("offers.csv uploaded");
    expect((await t.app.services.offerSources.get(sourceId)).endpoint).toMatch(/^file:.*\/feeds\/source-/);
    expect(await syncer().run(sourceId)).toMatchObject({ status: "succeeded", new: 12 });

    const layout = new FormData();
    layout.set("intent", "layout");
    layout.set("updatedAt", (await t.app.services.offerSources.get(sourceId)).updatedAt);
    for (const [field, column] of Object.entries({ external_id: "ID", name: "Title", payout: "payout" }))
      layout.set(`columns.${field}`, column);
    layout.set("delimiter", "tab");
    const saved = await post(url, layout);
    expect(saved.statusCode).toBe(400); // payout_type and currency are not named
    expect(saved.body).toContain("missing: payout_type, currency");
    layout.set("columns.payout_type", "payout_type");
    layout.set("columns.currency", "currency");
    expect((await post(url, layout)).statusCode).toBe(200);
    expect((await t.app.services.offerSources.get(sourceId)).settings).toEqual({
      columns: { external_id: "ID", name: "Title", payout: "payout", payout_type: "payout_type", currency: "currency" },
      delimiter: "tab",
    });

    const everflow = await addSource(t.db, t.app.services.secrets, { url: server.url });
    const other = await t.app.inject({
      url: `/admin/sources/${everflow.sourceId}/feed`,
      headers: { cookie: cookieOf(admin) },
    });
    expect(other.statusCode).toBe(400);
  });
});
