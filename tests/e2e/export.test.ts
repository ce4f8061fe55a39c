// The CSV export in Chromium (issue #14): a signed-out visitor sees "Export CSV"
// leading to the login page, with this search as the way back; a signed-in user
// searches, sorts, clicks Export CSV, and the downloaded file, parsed back with
// csv-parse, holds every match in the table's order with the text the table shows.
import fs from "node:fs/promises";
import type { Browser, Page } from "playwright-core";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { browserAvailable, launchBrowser } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/server.ts";
import { sessionCookie, signInWithRoles } from "../helpers/staff.ts";

describe.skipIf(!browserAvailable)("offer export in Chromium", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;
  let word: string;
  let tricky: { id: number; name: string };

  beforeAll(async () => {
    server = await startTestServer({ seed: { networks: 4, offers: 400, trafficSources: 1 } });
    browser = await launchBrowser();
    // The commonest word of the offers' names: a search with a few pages of matches.
    [{ word }] = await server.db.query<{ word: string }>(sql`
      SELECT w AS word FROM offers, regexp_split_to_table(lower(name), '[^a-z]+') AS w
      WHERE status = 'active' AND length(w) >= 4 GROUP BY w ORDER BY count(*) DESC, w LIMIT 1`);
    // One match whose name needs quoting in a CSV: a comma, quotes and an accent.
    const [match] = await server.db.query<{ id: number; name: string }>(sql`
      SELECT id, name FROM offers WHERE status = 'active' AND lower(name) LIKE ${`%${word}%`} ORDER BY id LIMIT 1`);
    tricky = { id: match.id, name: `${match.name}, "Édition" Plus` };
    await server.db.query(sql`UPDATE offers SET name = ${tricky.name} WHERE id = ${tricky.id}`);
    server.app.services.offers.catalogueChanged();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const open = async (signedIn: boolean) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 }, acceptDownloads: true });
    if (signedIn)
      await context.addCookies([sessionCookie(await signInWithRoles(server, [], "Eve Exporter"), server.baseUrl)]);
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/`, { waitUntil: "networkidle" });
    return page;
  };

  /** Types the search and waits for the results of it. */
  const search = async (page: Page) => {
    await page.locator("#search-box").fill(word);
    await page.waitForURL((u) => u.searchParams.get("search") === word);
    await expect.poll(() => page.getByTestId("results-summary").textContent()).toContain(`for “${word}”`);
  };

  it("a signed-out visitor sees Export CSV leading to the login page, with this search as the way back", async () => {
    const page = await open(false);
    await search(page);
    const link = page.getByTestId("export-csv");
    expect(await link.textContent()).toBe("Export CSV (log in)");
    const here = new URL(page.url());
    const target = new URL((await link.getAttribute("href"))!, server.baseUrl);
    expect(target.pathname).toBe("/login");
    expect(target.searchParams.get("redirectTo")).toBe(here.pathname + here.search);
    await page.context().close();
  });

  it("a signed-in user exports the search and the file matches the table", async () => {
    const page = await open(true);
    await search(page);
    // A sort of their own, which the file must follow too.
    await page
      .getByRole("columnheader", { name: /Payout/ })
      .getByRole("link")
      .click();
    await page.waitForURL((u) => u.searchParams.get("sortBy") === "payout");
    // The link follows the page's state (the address changes a moment before the page renders it).
    const link = page.getByRole("link", { name: "Export CSV" });
    await expect.poll(() => link.getAttribute("href")).toContain("sortBy=payout");
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toBe(`offeratlas-offers-${new Date().toISOString().slice(0, 10)}.csv`);
    const bytes = await fs.readFile((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...records] = parse(bytes, { bom: true }) as string[][];
    const rows = records.map((r) => Object.fromEntries(header.map((name, i) => [name, r[i]])));

    // Every match is in the file (the summary's "1–25 of N"), the table's page first, in its order.
    const summary = (await page.getByTestId("results-summary").textContent())!;
    const total = Number(/of ([\d,]+) offers/.exec(summary)![1].replace(/,/g, ""));
    expect(total).toBeGreaterThan(25);
    expect(rows).toHaveLength(total);
    const tableRows = page.locator('[data-testid="offers-table"] tbody tr');
    const shown = await tableRows.evaluateAll((trs) =>
      trs.map((tr) => {
        const cells = [...tr.querySelectorAll("td")];
        return {
          id: tr.getAttribute("data-offer-id"),
          offer: cells[1].querySelector<HTMLAnchorElement>('a[href^="/offer/"]')!.textContent,
          href: cells[1].querySelector<HTMLAnchorElement>('a[href^="/offer/"]')!.getAttribute("href"),
          network: cells[2].textContent,
          payout: cells[3].firstChild!.textContent,
          type: cells[4].textContent,
          geos: cells[5].textContent,
          vertical: cells[6].textContent,
          date: cells[7].textContent,
        };
      }),
    );
    expect(shown).toHaveLength(25);
    // The table's own text; the file's links lead to the pages the table links to.
    const origin = server.config.publicUrl;
    expect(
      rows.slice(0, 25).map((r) => ({
        id: r.offer_id,
        offer: r.offer,
        href: r.offer_url.slice(origin.length),
        network: r.network,
        payout: r.payout,
        type: r.type,
        geos: r.geos,
        vertical: r.vertical,
        date: r.date,
      })),
    ).toEqual(shown);
    expect(rows.every((r) => r.offer_url.startsWith(`${origin}/offer/`))).toBe(true);
    // The name with a comma and quotes came through whole (it is somewhere among the matches).
    expect(rows.find((r) => r.offer_id === String(tricky.id))?.offer).toBe(tricky.name);
    await page.context().close();
  });
});
