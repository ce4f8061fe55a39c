// Accessibility of every public page in Chromium (issue #15): axe-core's WCAG 2.x
// A/AA rules and best practices find no violation on any page, signed out and
// signed in, nor with a filter list, the login dropdown or the phone menu open, nor
// with a form's errors shown; at 375 px and 1280 px. At 375 px nothing is wider
// than the screen (WCAG 1.4.10 reflow: no sideways scrolling).
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { axeViolations, type Allowed } from "../helpers/axe.ts";
import { browserAvailable, launchBrowser } from "../helpers/browser.ts";
import { TEST_DATABASE_URL } from "../helpers/database.ts";
import { startTestServer } from "../helpers/server.ts";
import { sessionCookie, signInWithRoles } from "../helpers/staff.ts";

type Server = Awaited<ReturnType<typeof startTestServer>>;
/** A page to check: its address, what to do on it first (open a list, submit a form), a known third-party violation. */
type Visit = {
  name: string;
  path: () => string;
  signedIn?: boolean;
  then?: (page: Page) => Promise<void>;
  allow?: Allowed[];
};

const PHONE = 375;
/** Visits share the machine five at a time: Swagger UI's page alone has taken 25-30 s so on two cores. */
const VISIT_TIMEOUT_MS = 60_000;

// Markup, not data: the same pages on PostgreSQL would repeat every check, so CI's PostgreSQL pass skips them.
describe.skipIf(!browserAvailable || Boolean(TEST_DATABASE_URL))("accessibility in Chromium (axe-core)", () => {
  let server: Server;
  let browser: Browser;
  // Addresses built from the seeded data in beforeAll.
  const at = {
    search: "",
    offer: "",
    retiredOffer: "",
    network: "",
    retiredNetwork: "",
    trafficSource: "",
    compare: "",
  };
  let account: Awaited<ReturnType<typeof signInWithRoles>>;

  beforeAll(async () => {
    server = await startTestServer({ seed: { networks: 12, offers: 300, trafficSources: 4 } });
    const { db } = server;
    // An offer listed at several networks, so its page has the "Same offer at other networks" table.
    const [offer, other, retired] = await db.query<{ id: number; slug: string; name: string; network_id: number }>(sql`
      SELECT id, slug, name, network_id FROM offers
      WHERE status = 'active' AND product_key IN (
        SELECT product_key FROM offers WHERE status = 'active' GROUP BY product_key HAVING count(*) >= 4)
      ORDER BY product_key, id LIMIT 3`);
    await db.query(sql`UPDATE offers SET status = 'retired' WHERE id = ${retired.id}`);
    const [network, gone] = await db.query<{ id: number; slug: string }>(sql`
      SELECT id, slug FROM networks WHERE status = 'active' AND id <> ${offer.network_id} ORDER BY id LIMIT 2`);
    await db.query(sql`UPDATE networks SET status = 'retired', retired_at = now() WHERE id = ${gone.id}`);
    const [source] = await db.query<{ id: number }>(sql`SELECT id FROM traffic_sources ORDER BY id LIMIT 1`);
    at.search = `/?search=${encodeURIComponent(offer.name.split(" ")[0].toLowerCase())}&selectedTab=topOffers&page=1`;
    at.offer = `/offer/${offer.id}/${offer.slug}`;
    at.retiredOffer = `/offer/${retired.id}/${retired.slug}`;
    at.network = `/network/${network.id}/${network.slug}`;
    at.retiredNetwork = `/network/${gone.id}/${gone.slug}`;
    at.trafficSource = `/traffic-sources/details/${source.id}`;
    at.compare = `/compare?ids=${offer.id},${other.id}`;
    account = await signInWithRoles(server, [], "Alma Auditor");
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Submits the page's own form empty and waits for its messages. */
  const submitEmpty = (button: string) => async (page: Page) => {
    await page.locator("main").getByRole("button", { name: button, exact: true }).click();
    await page.locator("main").getByText("cannot be blank").first().waitFor();
  };
  /** Opens a filter list and waits for its whole list of choices. */
  const openFilter = (name: string) => async (page: Page) => {
    await page.locator(`details[data-filter="${name}"] > summary`).click();
    await page.locator(`details[data-filter="${name}"] input[type="checkbox"]`).nth(1).waitFor();
  };
  /** On a phone the navigation links sit behind the menu button. */
  const openMenu = async (page: Page) => {
    const menu = page.getByRole("button", { name: "Menu" });
    if (await menu.isVisible()) {
      await menu.click();
      await page.locator("#main-menu").waitFor({ state: "visible" });
    }
  };
  const openLoginDropdown = async (page: Page) => {
    await openMenu(page);
    await page.locator("header").getByRole("link", { name: "Login", exact: true }).hover();
    await page.getByTestId("login-dropdown").waitFor({ state: "visible" });
  };

  const visits: Visit[] = [
    { name: "home", path: () => "/" },
    { name: "a search", path: () => at.search },
    { name: "a search, networks filter open", path: () => at.search, then: openFilter("networks") },
    { name: "home, countries filter open", path: () => "/", then: openFilter("countries") },
    { name: "home, categories filter open", path: () => "/", then: openFilter("categories") },
    { name: "home, login dropdown open", path: () => "/", then: openLoginDropdown },
    { name: "home, navigation menu open", path: () => "/", then: openMenu },
    { name: "pay-per-call offers", path: () => "/pay-per-call-offers" },
    { name: "pay per call", path: () => "/pay-per-call" },
    { name: "an offer", path: () => at.offer },
    { name: "a retired offer (410)", path: () => at.retiredOffer },
    { name: "compare", path: () => at.compare },
    { name: "networks", path: () => "/networks" },
    { name: "networks, a search", path: () => "/networks?search=a&page=2" },
    { name: "a network", path: () => at.network },
    { name: "a retired network (410)", path: () => at.retiredNetwork },
    { name: "traffic sources", path: () => "/traffic-sources" },
    { name: "a traffic source", path: () => at.trafficSource },
    { name: "FAQ", path: () => "/faq" },
    { name: "links", path: () => "/links" },
    { name: "privacy", path: () => "/privacy" },
    { name: "terms", path: () => "/terms" },
    {
      name: "developers",
      path: () => "/developers",
      then: async (page) => {
        await page.locator("#swagger-ui").scrollIntoViewIfNeeded();
        await page.locator("#swagger-ui .opblock").first().waitFor();
      },
      // Swagger UI's reference is checked too: the page fixes up its palette, its heading levels
      // and its server <select>. Its layout's own <main> (swagger-ui-dist 5, decision 0022) is
      // made a named region so that ours stays the one main landmark: a role <main> may not take.
      allow: [{ rule: "aria-allowed-role", target: "#operations" }],
    },
    { name: "login", path: () => "/login" },
    { name: "login, errors shown", path: () => "/login", then: submitEmpty("Log In") },
    { name: "register", path: () => "/register" },
    { name: "register, errors shown", path: () => "/register", then: submitEmpty("Register") },
    { name: "forgot password", path: () => "/forgot-password" },
    { name: "reset password, unknown link", path: () => "/reset-password?token=not-a-token" },
    { name: "advertise", path: () => "/advertise" },
    { name: "advertise, errors shown", path: () => "/advertise", then: submitEmpty("Send request") },
    { name: "add your network", path: () => "/add-your-network" },
    { name: "add your network, errors shown", path: () => "/add-your-network", then: submitEmpty("Submit network") },
    { name: "help", path: () => "/contact" },
    { name: "help, errors shown", path: () => "/contact", then: submitEmpty("Send message") },
    { name: "unsubscribe, unknown link", path: () => "/unsubscribe/not-a-token" },
    { name: "not found (404)", path: () => "/definitely/not/here" },
    { name: "the 404 page", path: () => "/404" },
    { name: "account", path: () => "/account", signedIn: true },
    { name: "watchlist", path: () => "/account/watchlist", signedIn: true },
    { name: "API keys", path: () => "/account/api-keys", signedIn: true },
    { name: "saved searches", path: () => "/account/searches", signedIn: true },
    { name: "a network, signed in (review form)", path: () => at.network, signedIn: true },
    { name: "a search, signed in", path: () => at.search, signedIn: true },
  ];

  it("names what each link does: sort headings by their order, the same offer's links by their network", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, baseURL: server.baseUrl });
    await page.goto(at.search, { waitUntil: "networkidle" });
    const table = page.getByTestId("offers-table");
    const sortLinks = () => table.locator("thead a").evaluateAll((as) => as.map((a) => a.getAttribute("aria-label")));
    expect(await sortLinks()).toEqual([
      "Offer, sort ascending",
      "Network, sort ascending",
      "Payout, sort descending",
      "Date, sort descending",
    ]);
    // Sorted by payout, highest first: the heading says so, and its link now offers the other order.
    await table.getByRole("link", { name: "Payout, sort descending" }).click();
    await page.waitForURL((u) => u.searchParams.get("sortBy") === "payout");
    await expect
      .poll(() => table.getByRole("columnheader", { name: /^Payout/ }).getAttribute("aria-sort"))
      .toBe("descending");
    expect((await sortLinks())[2]).toBe("Payout, sort ascending");

    await page.goto(at.offer, { waitUntil: "networkidle" });
    const rows = page.locator('[data-testid="same-offer-table"] tbody tr:not([aria-current])');
    const networks = await rows.locator("td:first-child a").allTextContents();
    const views = await rows.getByRole("link", { name: /^View/ }).evaluateAll((as) => as.map((a) => a.textContent));
    expect(networks.length).toBeGreaterThanOrEqual(3);
    expect(views).toEqual(networks.map((n) => `View at ${n}`));
    await page.close();
  });

  it("scrolls what gets focus clear of the sticky navigation bar", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 600 }, baseURL: server.baseUrl });
    await page.goto("/", { waitUntil: "networkidle" });
    const bar = (await page.locator("header").first().boundingBox())!;
    const rows = page.getByTestId("offers-table").locator("tbody tr");
    const target = rows.nth(10).locator("td:nth-child(3) a"); // a network link
    // Scroll so the link sits half under the bar, and focus the next row's first control, below the bar.
    await target.evaluate(
      (el, barBottom) => window.scrollBy(0, el.getBoundingClientRect().top - (barBottom - 10)),
      bar.height,
    );
    await rows.nth(11).getByRole("checkbox").focus();
    // Shift+Tab goes back to the link: the browser scrolls it out from under the bar.
    await page.keyboard.press("Shift+Tab");
    expect(await target.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await target.evaluate((el) => el.getBoundingClientRect().top)).toBeGreaterThanOrEqual(bar.height);
    await page.close();
  });

  describe.each([PHONE, 1280])("at %i px", (width) => {
    let guest: BrowserContext;
    let member: BrowserContext;
    beforeAll(async () => {
      const options = { viewport: { width, height: 900 }, baseURL: server.baseUrl };
      guest = await browser.newContext(options);
      member = await browser.newContext(options);
      await member.addCookies([sessionCookie(account, server.baseUrl)]);
    });
    afterAll(async () => {
      await guest?.close();
      await member?.close();
    });

    // Several pages at once (each in its own tab): a visit mostly waits, on the network going idle and on axe.
    it.concurrent.each(visits)(
      "$name",
      async ({ path, signedIn, then, allow }) => {
        const page = await (signedIn ? member : guest).newPage();
        try {
          await page.goto(path(), { waitUntil: "networkidle" });
          await then?.(page);
          expect(await axeViolations(page, allow)).toEqual([]);
          if (width === PHONE) {
            expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE);
          }
        } finally {
          await page.close();
        }
      },
      VISIT_TIMEOUT_MS,
    );
  });
});
