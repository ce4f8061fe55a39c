// The console's offers in a browser: an admin creates an offer (a refusal shows
// the field's message and keeps what was typed), makes it sponsored for a
// keyword and sees it pinned and marked sponsored in that search on /, then
// retires it: its page answers 410 "no longer listed" and the search drops it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { sql } from "#db/client.ts";
import { AUTH_COOKIE } from "#core/auth/sessions.ts";
import { browserAvailable, holdScripts, launchBrowser, pageStarted } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/server.ts";
import { signInWithRoles } from "../helpers/staff.ts";

type Server = Awaited<ReturnType<typeof startTestServer>>;

const utcDay = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe.skipIf(!browserAvailable)("console offers in a browser", () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  let network: { id: number; name: string };

  beforeAll(async () => {
    server = await startTestServer({ seed: { networks: 4, offers: 60, trafficSources: 1 } });
    browser = await launchBrowser();
    [network] = await server.db.query<{ id: number; name: string }>(
      sql`SELECT id, name FROM networks ORDER BY id LIMIT 1`,
    );
    const admin = await signInWithRoles(server, ["admin"], "Ada Admin");
    const context = await browser.newContext({ baseURL: server.baseUrl });
    await context.addCookies([
      { name: AUTH_COOKIE, value: admin.headers.authorization.replace(/^Bearer /, ""), url: server.baseUrl },
    ]);
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const form = () => page.getByTestId("offer-form");
  const field = (name: string) => form().locator(`[name="${name}"]`);
  const offerRow = (id: number) => page.locator(`[data-testid="offers-table"] tr[data-offer-id="${id}"]`);

  it("creates an offer, sponsors it for a keyword, sees it sponsored on /, retires it and gets 410", async () => {
    await page.goto("/admin/offers");
    await page.getByRole("link", { name: "Offers", exact: true }).waitFor();
    await page.getByRole("link", { name: "New offer" }).click();
    await page.waitForURL(/\/admin\/offers\/new$/);

    // Without a payout the form is refused beside the field, and keeps what was typed.
    await field("name").fill("Zyphorix Solar Leads");
    await field("networkId").selectOption(String(network.id));
    await form().locator('details[data-filter="countries"] > summary').click();
    await form()
      .locator('details[data-filter="countries"] label', { hasText: /^United States$/ })
      .locator("input")
      .check();
    await page.keyboard.press("Escape");
    await form().getByRole("button", { name: "Create offer" }).click();
    await expect
      .poll(() => page.locator('[data-field-error="payoutAmount"]').textContent())
      .toBe("Give a payout amount or a percentage");
    expect(await field("name").inputValue()).toBe("Zyphorix Solar Leads");
    expect(await form().locator('details[data-filter="countries"] > summary').textContent()).toContain("1 selected");

    await field("payoutAmount").fill("35");
    await form().getByRole("button", { name: "Create offer" }).click();
    await page.waitForURL(/\/admin\/offers\/\d+\?created=1$/);
    const id = Number(new URL(page.url()).pathname.split("/").pop());
    const [stored] = await server.db.query<{ countries: string[]; payout_usd: number; sponsored: boolean }>(
      sql`SELECT countries, payout_usd, sponsored FROM offers WHERE id = ${id}`,
    );
    expect(stored).toEqual({ countries: ["US"], payout_usd: 35, sponsored: false });

    // Sponsored for one keyword, from yesterday to next week.
    await field("sponsored").check();
    await field("sponsoredKeywords").fill("zyphorix");
    await field("sponsoredFrom").fill(utcDay(-1));
    await field("sponsoredUntil").fill(utcDay(7));
    await form().getByRole("button", { name: "Save offer" }).click();
    await expect.poll(() => page.getByTestId("save-result").textContent()).toBe("Saved.");

    // On the home page, that search shows it pinned first and marked sponsored.
    await page.goto("/?search=zyphorix&selectedTab=topOffers&page=1");
    await offerRow(id).waitFor();
    expect(await offerRow(id).getAttribute("data-sponsored")).toBe("true");
    expect(await offerRow(id).textContent()).toContain("Sponsored");
    expect(await page.locator('[data-testid="offers-table"] tbody tr').first().getAttribute("data-offer-id")).toBe(
      String(id),
    );

    // Retire it from the console.
    await page.goto(`/admin/offers/${id}`);
    await page.getByRole("button", { name: "Retire offer" }).click();
    await expect.poll(() => page.getByTestId("offer-status").textContent()).toContain("Status: retired");

    // Its page answers 410 with the "no longer listed" page, pointing to its network.
    const [{ slug }] = await server.db.query<{ slug: string }>(sql`SELECT slug FROM offers WHERE id = ${id}`);
    const response = await page.goto(`/offer/${id}/${slug}`);
    expect(response?.status()).toBe(410);
    await page.getByTestId("no-longer-listed").waitFor();
    expect(await page.getByTestId("no-longer-listed").textContent()).toContain(
      "Zyphorix Solar Leads is no longer listed",
    );
    expect(await page.getByTestId("no-longer-listed").getByRole("link").getAttribute("href")).toMatch(
      new RegExp(`^/network/${network.id}/`),
    );

    // And the search no longer finds it.
    await page.goto("/?search=zyphorix&selectedTab=topOffers&page=1");
    await page.getByTestId("results-summary").waitFor();
    expect(await offerRow(id).count()).toBe(0);
  }, 90_000);

  it("keeps a network picked before the page's script started", async () => {
    // The page's scripts are held back until the visitor has picked a network in the
    // server-rendered form; starting the page then must not put the select back to its default.
    const held = await browser.newContext({ baseURL: server.baseUrl });
    await held.addCookies(await page.context().cookies());
    const release = await holdScripts(held);
    const early = await held.newPage();
    await early.goto("/admin/offers/new", { waitUntil: "domcontentloaded" });
    const select = early.getByTestId("offer-form").locator('[name="networkId"]');
    await select.selectOption(String(network.id));
    expect(await early.locator("html[data-started]").count()).toBe(0);
    release();
    await pageStarted(early);
    expect(await select.inputValue()).toBe(String(network.id));
    await held.close();
  });
});
