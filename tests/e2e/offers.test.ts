// Browser journeys through the offers search, the offer page and compare.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { sql } from "#db/client.ts";
import { SEARCH_DEBOUNCE_MS } from "#app/ui/shell/SearchBox.tsx";
import { browserAvailable, launchBrowser, pageStarted } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/server.ts";

type Server = Awaited<ReturnType<typeof startTestServer>>;

describe.skipIf(!browserAvailable)("offers in a browser", () => {
  let server: Server;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startTestServer({ seed: { networks: 30, offers: 1500, trafficSources: 4 } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const url = () => new URL(page.url());
  const hydrated = () => page.locator("text=Apply filters").waitFor({ state: "detached" });
  const summary = (filter: string) => page.locator(`details[data-filter="${filter}"] > summary`);
  const rowNames = () => page.locator('[data-testid="offers-table"] tbody tr td:nth-child(2) a').allTextContents();

  async function pickCountries(...names: string[]) {
    await summary("countries").click();
    for (const [i, name] of names.entries()) {
      await page
        .locator('details[data-filter="countries"] label', { hasText: new RegExp(`^${name}$`) })
        .locator("input")
        .check();
      // The router commits the address once the results are loaded: the next tick starts on them.
      await page.waitForURL((u) => (u.searchParams.get("countries") ?? "").split(",").filter(Boolean).length > i);
    }
    await page.keyboard.press("Escape");
  }

  it("searches after the debounce, filters, clears each part, survives a reload, pages and resets from the logo", async () => {
    const context = await browser.newContext();
    page = await context.newPage();
    await page.goto(`${server.baseUrl}/`);
    await hydrated();

    // Type a term, wait for the debounce: matching rows and the URL updated.
    // What is sent is lowercased and trimmed (docs/product.md §5); the box keeps what was typed.
    await page.locator("#search-box").fill("  CASINO ");
    await page.waitForURL((u) => u.searchParams.get("search") === "casino");
    expect(await page.locator("#search-box").inputValue()).toBe("  CASINO ");
    await page.locator("#search-box").fill("casino");
    await page.waitForTimeout(SEARCH_DEBOUNCE_MS + 100); // same search: nothing to send, let the debounce pass
    await expect.poll(() => page.getByTestId("results-summary").textContent()).toContain("for “casino”");
    const names = await rowNames();
    expect(names.filter((n) => /casino/i.test(n)).length).toBeGreaterThan(names.length / 2);

    // Two countries: the collapsed dropdown says "2 selected".
    await pickCountries("United States", "Canada");
    await page.waitForURL((u) => u.searchParams.get("countries") === "US,CA");
    await expect.poll(() => summary("countries").textContent()).toContain("2 selected");

    // Clear Filters keeps the search text.
    await page.getByRole("link", { name: "Clear Filters" }).click();
    await page.waitForURL((u) => !u.searchParams.get("countries"));
    expect(url().searchParams.get("search")).toBe("casino");
    expect(await page.locator("#search-box").inputValue()).toBe("casino");
    await expect.poll(() => summary("countries").textContent()).toContain("All countries");

    // Clear Searches keeps the filters.
    await pickCountries("United States");
    await page.waitForURL((u) => u.searchParams.get("countries") === "US");
    await page.getByRole("link", { name: "Clear Searches" }).click();
    await page.waitForURL((u) => u.searchParams.get("search") === "");
    expect(url().searchParams.get("countries")).toBe("US");
    await expect.poll(() => page.locator("#search-box").inputValue()).toBe("");
    await expect.poll(() => summary("countries").textContent()).toContain("1 selected");

    // Reload restores the same state.
    await page.locator("#search-box").fill("dating");
    await page.waitForURL((u) => u.searchParams.get("search") === "dating");
    await expect.poll(() => page.getByTestId("results-summary").textContent()).toContain("for “dating”");
    const before = await rowNames();
    await page.reload();
    await hydrated();
    expect(await page.locator("#search-box").inputValue()).toBe("dating");
    expect(await summary("countries").textContent()).toContain("1 selected");
    expect(await rowNames()).toEqual(before);

    // Page 2.
    await page.getByRole("link", { name: "Clear Searches" }).click();
    await page.waitForURL((u) => u.searchParams.get("search") === "");
    await expect.poll(() => page.getByTestId("results-summary").textContent()).not.toContain("for “");
    const first = await rowNames();
    await page.getByRole("link", { name: "Page 2", exact: true }).click();
    await page.waitForURL((u) => u.searchParams.get("page") === "2");
    await expect.poll(async () => (await rowNames()).join("|")).not.toBe(first.join("|"));
    expect(await page.locator('nav[aria-label="Offer pages"] [aria-current="page"]').textContent()).toBe("2");

    // The logo resets everything: tab, page, search and filters.
    await page.getByRole("link", { name: "Newest" }).click();
    await page.waitForURL((u) => u.searchParams.get("selectedTab") === "newest");
    await page.locator("#search-box").fill("keto");
    await page.waitForURL((u) => u.searchParams.get("search") === "keto");
    await page.getByRole("link", { name: "OfferAtlas home" }).first().click();
    await page.waitForURL(
      (u) => u.searchParams.get("search") === "" && u.searchParams.get("selectedTab") === "topOffers",
    );
    expect(url().searchParams.get("page")).toBe("1");
    expect(url().searchParams.get("countries")).toBeNull();
    await expect.poll(() => page.locator("#search-box").inputValue()).toBe("");
    await expect.poll(() => summary("countries").textContent()).toContain("All countries");
    await context.close();
  });

  // A slow load makes every tick land while the last one's results are still loading.
  it.each([
    ["as they come", 0],
    ["when they load slowly", 600],
  ])("keeps every tick of fast ticks in two lists, results %s", async (_, delayMs) => {
    const context = await browser.newContext();
    page = await context.newPage();
    let delayed = 0;
    if (delayMs)
      await page.route(
        (u) => u.pathname.endsWith(".data"), // a client navigation's loader data
        async (route) => {
          delayed++;
          await new Promise((resolve) => setTimeout(resolve, delayMs));
          await route.continue();
        },
      );
    await page.goto(`${server.baseUrl}/`);
    await hydrated();
    // Tick each value without waiting for the address or the results in between.
    const tick = async (filter: string, values: string[] | number) => {
      await summary(filter).click();
      const inputs = page.locator(`details[data-filter="${filter}"] input[type="checkbox"]`);
      await inputs.nth(1).waitFor();
      const picked =
        typeof values === "number"
          ? await inputs.evaluateAll((all, n) => all.slice(0, n).map((i) => (i as HTMLInputElement).value), values)
          : values;
      for (const value of picked) await inputs.and(page.locator(`[value="${value}"]`)).check();
      await page.keyboard.press("Escape");
      return picked;
    };
    await tick("countries", ["US", "CA"]);
    const ids = await tick("networks", 2);

    await page.waitForURL(
      (u) => u.searchParams.get("countries") === "US,CA" && u.searchParams.get("networks") === ids.join(","),
    );
    expect(delayed > 0).toBe(delayMs > 0);
    await expect.poll(() => summary("countries").textContent()).toContain("2 selected");
    await expect.poll(() => summary("networks").textContent()).toContain("2 selected");
    // The results are the last tick's: each row from one of the two networks and run in one of the two countries.
    const rows = page.locator('[data-testid="offers-table"] tbody tr');
    await expect
      .poll(async () => {
        const cells = await rows.evaluateAll((trs) =>
          trs.map((tr) => ({
            network: tr.querySelector<HTMLAnchorElement>("td:nth-child(3) a")?.pathname.split("/")[2],
            geos: tr.querySelector("td[title]")?.getAttribute("title")?.split(", ") ?? [],
          })),
        );
        return (
          cells.length > 0 &&
          cells.every((c) => ids.includes(c.network!) && c.geos.some((g) => g === "US" || g === "CA"))
        );
      })
      .toBe(true);
    await context.close();
  });

  it("shows the same offer at other networks sorted by payout", async () => {
    const [offer] = await server.db.query<{ id: number; slug: string }>(sql`
      SELECT o.id, o.slug FROM offers o
      WHERE o.status = 'active' AND o.product_key IN (
        SELECT product_key FROM offers WHERE status = 'active' AND payout_usd IS NOT NULL GROUP BY product_key HAVING count(*) >= 3)
      ORDER BY o.payout_usd ASC NULLS LAST LIMIT 1`);
    const context = await browser.newContext();
    page = await context.newPage();
    // A missing slug lands on the canonical address.
    await page.goto(`${server.baseUrl}/offer/${offer.id}`);
    expect(url().pathname).toBe(`/offer/${offer.id}/${offer.slug}`);
    await page.getByRole("heading", { name: "Same offer at other networks" }).waitFor();
    const rows = page.locator('[data-testid="same-offer-table"] tbody tr');
    expect(await rows.count()).toBeGreaterThanOrEqual(3);
    const usd = (await rows.evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.payoutUsd ?? ""))).map(
      Number,
    );
    expect([...usd].sort((a, b) => b - a)).toEqual(usd);
    expect(await rows.first().textContent()).toContain("Best payout");
    expect(await page.locator('[data-testid="same-offer-table"] tr[aria-current="true"]').count()).toBe(1);
    await context.close();
  });

  it("compares two offers side by side", async () => {
    const context = await browser.newContext();
    page = await context.newPage();
    await page.goto(`${server.baseUrl}/?selectedTab=newest&search=&page=1`);
    await hydrated();
    const picked = (await rowNames()).slice(0, 2);
    const boxes = page.locator('[data-testid="offers-table"] tbody input[type="checkbox"]');
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await page.getByRole("link", { name: "Compare (2)" }).click();
    await page.waitForURL((u) => u.pathname === "/compare");
    await page.getByTestId("compare-table").waitFor();
    expect(url().searchParams.get("ids")?.split(",")).toHaveLength(2);
    const headers = await page.locator('[data-testid="compare-table"] thead th a').allTextContents();
    expect(headers).toEqual(picked);
    for (const label of ["Payout", "Payout type", "Geos", "Verticals", "Network rating", "Traffic allowed"]) {
      expect(
        await page.locator('[data-testid="compare-table"] tbody th', { hasText: new RegExp(`^${label}$`) }).count(),
      ).toBe(1);
    }
    await context.close();
  });

  it("loads the whole list of a dropdown opened before the page's script started", async () => {
    const context = await browser.newContext();
    page = await context.newPage();
    // Hold every script until the dropdown is open: its toggle happens with nobody listening.
    let release!: () => void;
    const scriptsHeld = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (u) => u.pathname.endsWith(".js"),
      async (route) => {
        await scriptsHeld;
        await route.continue();
      },
    );
    await page.goto(`${server.baseUrl}/`, { waitUntil: "domcontentloaded" });
    await summary("categories").click();
    const categories = page.locator('details[data-filter="categories"]');
    await categories.getByRole("link", { name: /^Show all \d+ categories$/ }).waitFor();
    release();
    await pageStarted(page);
    // Started, the open dropdown fetches and draws the whole list in place of the link.
    await categories.locator('input[type="checkbox"]').nth(1).waitFor();
    expect(await categories.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    expect(await categories.getByRole("link", { name: /^Show all/ }).count()).toBe(0);
    await context.close();
  });

  it("filters with JavaScript off: the whole list one link away, then a plain GET form", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const nojs = await context.newPage();
    await nojs.goto(`${server.baseUrl}/?selectedTab=topOffers&search=casino&page=1`);
    const countries = nojs.locator('details[data-filter="countries"]');
    await countries.locator("summary").click();
    await countries.getByRole("link", { name: /^Show all \d+ countries$/ }).click();
    await nojs.waitForURL((u) => u.searchParams.get("show") === "countries");
    // The list is open, and the search is kept.
    await countries
      .locator("label", { hasText: /^Canada$/ })
      .locator("input")
      .check();
    await nojs.getByRole("button", { name: "Apply filters" }).click();
    await nojs.waitForURL((u) => u.searchParams.get("countries") === "CA");
    expect(new URL(nojs.url()).searchParams.get("search")).toBe("casino");
    expect(await countries.locator("summary").textContent()).toContain("1 selected");
    // Every offer listed runs in Canada.
    const geos = await nojs
      .locator('[data-testid="offers-table"] tbody tr td[title]')
      .evaluateAll((cells) => cells.map((c) => c.getAttribute("title")));
    expect(geos.length).toBeGreaterThan(0);
    expect(geos.every((g) => g!.split(", ").includes("CA"))).toBe(true);
    await context.close();
  });
});
