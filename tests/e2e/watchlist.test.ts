// The watchlist in Chromium (issue #14): a signed-in affiliate follows an offer from
// the results table with the keyboard alone, its platform raises the payout (a sync
// from a fake Everflow), and /account/watchlist shows the rise with its amount, once.
// A network is followed from its page with JavaScript, and unfollowed without it
// (the star is a plain form that comes back to the page).
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import type { Watchlist } from "#contracts/watchlist.ts";
import { browserAvailable, launchBrowser } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/server.ts";
import { sessionCookie, signInWithRoles } from "../helpers/staff.ts";
import { startFakeEverflow, type FakeEverflow } from "../fakes/everflow.ts";
import { addSource, API_KEY, offerOf, SECRETS_KEY } from "../supply/helpers.ts";

describe.skipIf(!browserAvailable)("the watchlist, in Chromium", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let everflow: FakeEverflow;
  let affiliate: Awaited<ReturnType<typeof signInWithRoles>>;
  const errors: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ seed: { networks: 2, offers: 10, trafficSources: 1 }, env: { SECRETS_KEY } });
    everflow = await startFakeEverflow({ apiKey: API_KEY, count: 5 });
    affiliate = await signInWithRoles(server, [], "Wanda Watcher");
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    await context.addCookies([sessionCookie(affiliate, server.baseUrl)]);
    page = await context.newPage();
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await everflow?.close();
    await server?.close();
  });

  const watchlist = async () => {
    const res = await server.app.inject({ url: "/api/account/watchlist", headers: affiliate.headers });
    return res.json<Watchlist>();
  };

  it("follows an offer from the results table with the keyboard and sees its payout rise in the watchlist", async () => {
    const { sourceId, networkId } = await addSource(server.db, server.app.services.secrets, { url: everflow.url });
    expect(await server.app.services.offerSync.run(sourceId)).toMatchObject({ status: "succeeded", new: 5 });
    // Offer 2 pays $12.00 (USD CPC).
    const offer = await offerOf(server.db, sourceId, 2);
    expect(offer).toMatchObject({ payoutAmount: 12, currency: "USD" });

    await page.goto(`${server.baseUrl}/?networks=${networkId}`, { waitUntil: "networkidle" });
    const row = page.locator(`[data-testid="offers-table"] tbody tr[data-offer-id="${offer.id}"]`);
    const star = row.getByRole("button", { name: `Follow ${offer.name}` });
    expect(await star.getAttribute("aria-pressed")).toBe("false");
    // Keyboard only: from the row's compare box, Tab reaches the star; Enter follows.
    await row.getByRole("checkbox").focus();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(`Follow ${offer.name}`);
    await page.keyboard.press("Enter");
    const followed = row.getByRole("button", { name: `Unfollow ${offer.name}` });
    await followed.waitFor();
    expect(await followed.getAttribute("aria-pressed")).toBe("true");
    // With JavaScript the star stays on the page (a fetch, not a navigation) and keeps the focus.
    expect(new URL(page.url()).pathname).toBe("/");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(
      `Unfollow ${offer.name}`,
    );
    expect((await watchlist()).offers.map((o) => o.offerId)).toEqual([offer.id]);

    // The list was last seen a while ago; then the platform raises the payout by $5.
    await server.db.query(sql`UPDATE watchlist_items SET last_seen_at = now() - interval '1 hour'`);
    everflow.state.versions.set(2, 5);
    expect(await server.app.services.offerSync.run(sourceId)).toMatchObject({ status: "succeeded", changed: 1 });

    await page.goto(`${server.baseUrl}/account/watchlist`, { waitUntil: "networkidle" });
    const item = page.locator(`tr[data-offer-id="${offer.id}"]`);
    expect(await item.getByTestId("payout").innerText()).toMatch(/^\$17\.00/);
    expect(await item.getByTestId("payout-change").innerText()).toMatch(
      /Payout up \$5\.00 on [A-Z][a-z]{2} \d{1,2}, \d{4}/,
    );
    // The visit is remembered: the next one shows no change.
    await page.reload({ waitUntil: "networkidle" });
    expect(await item.getByTestId("payout-change").count()).toBe(0);
    expect(await item.innerText()).toContain("No change");
  });

  it("follows a network from its page; without JavaScript the star is a form that comes back", async () => {
    const [network] = await server.db.query<{ id: number; name: string; slug: string }>(
      sql`SELECT id::int, name, slug FROM networks WHERE status = 'active' ORDER BY id LIMIT 1`,
    );
    const networkPage = `${server.baseUrl}/network/${network.id}/${network.slug}`;
    await page.goto(networkPage, { waitUntil: "networkidle" });
    const header = page.locator("header.card").first();
    await header.getByRole("button", { name: `Follow ${network.name}` }).click();
    await header.getByRole("button", { name: `Unfollow ${network.name}` }).waitFor();
    expect((await watchlist()).networks.map((n) => n.networkId)).toEqual([network.id]);

    await page.goto(`${server.baseUrl}/account/watchlist`, { waitUntil: "networkidle" });
    expect(await page.locator(`tr[data-network-id="${network.id}"]`).innerText()).toContain(network.name);

    // No JavaScript: a plain form post to the watchlist's action, then back to the network page.
    const plain = await browser.newContext({ javaScriptEnabled: false });
    await plain.addCookies([sessionCookie(affiliate, server.baseUrl)]);
    const noJs = await plain.newPage();
    await noJs.goto(networkPage);
    await noJs.getByRole("button", { name: `Unfollow ${network.name}` }).click();
    await noJs.waitForLoadState();
    expect(noJs.url()).toBe(networkPage);
    expect(await noJs.getByRole("button", { name: `Follow ${network.name}` }).getAttribute("aria-pressed")).toBe(
      "false",
    );
    expect((await watchlist()).networks).toEqual([]);
    await plain.close();
    expect(errors).toEqual([]);
  });
});
