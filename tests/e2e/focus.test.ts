// Keyboard and focus rules (#15) in a real browser, driven from the keyboard: where focus
// lands after a client-side navigation, a page of results and a refused form; filter lists
// and the login dropdown that close when focus leaves them; names and stops of the shell.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { browserAvailable, launchBrowser, pageStarted } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/server.ts";

type Server = Awaited<ReturnType<typeof startTestServer>>;

describe.skipIf(!browserAvailable)("focus and keyboard in Chromium", () => {
  let server: Server;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    server = await startTestServer({ seed: { networks: 30, offers: 400, trafficSources: 4 } });
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(path: string) {
    await context?.close();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await page.goto(`${server.baseUrl}${path}`, { waitUntil: "networkidle" });
    await pageStarted(page); // on a busy machine the network can go idle before the script has started the page
    return page;
  }

  /** The focused element, described: tag, id, test id and text, so a failure says where focus went. */
  const focused = () =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return {
        tag: el?.tagName.toLowerCase(),
        id: el?.id || undefined,
        testId: el?.dataset.testid,
        text: el?.textContent?.trim().slice(0, 80),
      };
    });
  const focusIsIn = (selector: string) =>
    page.evaluate((s) => Boolean(document.querySelector(s)?.contains(document.activeElement)), selector);
  /** The accessible name Chromium computes (what a screen reader says), from its accessibility tree. */
  async function accessibleName(selector: string) {
    const cdp = await context.newCDPSession(page);
    const { root } = await cdp.send("DOM.getDocument");
    const { nodeId } = await cdp.send("DOM.querySelector", { nodeId: root.nodeId, selector });
    const { nodes } = await cdp.send("Accessibility.getPartialAXTree", { nodeId, fetchRelatives: false });
    await cdp.detach();
    return nodes[0]?.name?.value as string | undefined;
  }

  it("moves focus to an opened offer's heading and announces its title, but not on the first load", async () => {
    await open("/?selectedTab=newest&search=&page=1");
    expect((await focused()).tag).toBe("body");
    expect(await page.getByTestId("route-announcer").textContent()).toBe("");

    const link = page.locator('[data-testid="offers-table"] tbody tr td:nth-child(2) a').first();
    await link.focus();
    await page.keyboard.press("Enter");
    await page.waitForURL((u) => u.pathname.startsWith("/offer"));
    await expect.poll(async () => (await focused()).tag).toBe("h1");
    const h1 = (await page.locator("main h1").first().textContent())?.trim();
    expect((await focused()).text).toBe(h1);
    const title = await page.title();
    await expect.poll(() => page.getByTestId("route-announcer").textContent()).toBe(title);
    // The next Tab goes on from the heading, into the page (not back to the navigation bar).
    await page.keyboard.press("Tab");
    expect(await focusIsIn("main")).toBe(true);
  });

  it("takes a link to a part of another page to that part's heading", async () => {
    await open("/networks");
    const href = await page
      .locator('[data-testid="networks-table"] tbody a[href^="/network/"]')
      .first()
      .getAttribute("href");
    // A client-side navigation, as a router link to /network/{id}/{slug}#reviews makes.
    await page.evaluate(
      (to) =>
        (
          window as unknown as { __reactRouterDataRouter: { navigate(to: string): Promise<void> } }
        ).__reactRouterDataRouter.navigate(to),
      `${href}#reviews`,
    );
    await page.waitForURL((u) => u.hash === "#reviews");
    await expect.poll(async () => (await focused()).id).toBe("network-reviews");
  });

  it("keeps focus and the caret in the search box while the typed search updates the page", async () => {
    await open("/");
    await page.locator("#search-box").focus();
    await page.keyboard.type("casino");
    await page.waitForURL((u) => u.searchParams.get("search") === "casino");
    await expect.poll(() => page.getByTestId("results-summary").textContent()).toContain("for “casino”");
    expect((await focused()).id).toBe("search-box");
    await page.keyboard.type(" bonus");
    expect(await page.locator("#search-box").inputValue()).toBe("casino bonus");
    expect(await page.getByTestId("route-announcer").textContent()).toBe("");
  });

  it("takes focus to the top of the results after Next page (offers and a directory)", async () => {
    await open("/?selectedTab=newest&search=&page=1");
    await page.getByRole("link", { name: "Next page" }).focus();
    await page.keyboard.press("Enter");
    await page.waitForURL((u) => u.searchParams.get("page") === "2");
    await expect.poll(async () => (await focused()).id).toBe("offers-heading");

    await open("/networks");
    await page.getByRole("link", { name: "Next page" }).focus();
    await page.keyboard.press("Enter");
    await page.waitForURL((u) => u.searchParams.get("page") === "2");
    await expect.poll(async () => (await focused()).id).toBe("networks-heading");
    // Focus is on the list's heading, in view: not left on the link below the new rows.
    const inView = await page.evaluate(() => {
      const r = document.activeElement!.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    });
    expect(inView).toBe(true);
  });

  it("focuses an error summary that links every field error of a refused /register", async () => {
    await open("/register");
    await page.locator("main").getByLabel("Name").focus();
    await page.keyboard.press("Enter");
    await expect.poll(async () => (await focused()).testId).toBe("form-alert");

    const beside = await page
      .locator("[data-field-error]")
      .evaluateAll((els) =>
        els.map((el) => ({ name: (el as HTMLElement).dataset.fieldError!, text: el.textContent!.trim() })),
      );
    expect(beside.length).toBeGreaterThanOrEqual(4);
    const listed = await page
      .getByTestId("form-alert")
      .locator("a")
      .evaluateAll((els) => els.map((el) => ({ href: el.getAttribute("href"), text: el.textContent!.trim() })));
    // Every message beside a field is in the summary, word for word, linking to its field.
    expect(listed).toEqual(beside.map(({ name, text }) => ({ href: `#lf-${name}`, text })));
    expect(await page.getByTestId("form-alert").textContent()).toContain(
      `Please correct the ${beside.length} highlighted fields.`,
    );

    // Tab reaches the first link; following it puts the caret in that field.
    await page.keyboard.press("Tab");
    expect((await focused()).text).toBe(beside[0].text);
    await page.keyboard.press("Enter");
    expect((await focused()).id).toBe(`lf-${beside[0].name}`);
  });

  it("closes a filter list when Tab leaves it, and on Escape back to its button", async () => {
    await open("/");
    const details = page.locator('details[data-filter="networks"]');
    const summary = details.locator("summary");
    const isOpen = () => details.evaluate((d) => (d as HTMLDetailsElement).open);
    await summary.focus();
    await page.keyboard.press("Enter");
    expect(await isOpen()).toBe(true);
    const boxes = details.locator('input[type="checkbox"]');
    await expect.poll(() => boxes.count()).toBeGreaterThan(20);

    // Tab past the last option: the list closes and the next control has the focus.
    await boxes.last().focus();
    await page.keyboard.press("Tab");
    expect(await isOpen()).toBe(false);
    expect(await focusIsIn('details[data-filter="networks"]')).toBe(false);
    // Back is one stop, not thirty: the closed list's button.
    await page.keyboard.press("Shift+Tab");
    expect(await summary.evaluate((s) => s === document.activeElement)).toBe(true);

    // Escape from inside the list closes it and gives focus back to its button.
    await page.keyboard.press("Enter");
    await boxes.nth(3).focus();
    await page.keyboard.press("Escape");
    expect(await isOpen()).toBe(false);
    expect(await summary.evaluate((s) => s === document.activeElement)).toBe(true);
  });

  it("keeps the login dropdown out of the Tab order until its button opens it", async () => {
    await open("/");
    const dropdown = page.getByTestId("login-dropdown");
    const toggle = page.locator("header").getByRole("button", { name: "Login form" });
    // Tab from the top of the page to the search box: every stop on the way, none in the dropdown.
    const stops: string[] = [];
    let inHeader = 0;
    for (let i = 0; i < 40 && (await focused()).id !== "search-box"; i++) {
      await page.keyboard.press("Tab");
      const f = await focused();
      stops.push(f.text || f.id || f.tag || "?");
      expect(await focusIsIn('[data-testid="login-dropdown"]'), stops.join(" | ")).toBe(false);
      if (await focusIsIn("header")) inHeader++;
    }
    expect((await focused()).id).toBe("search-box");
    // Logo, Login, its button, Register, Advertise, Add Your Network, Help, Resources: 8, not 13.
    expect(inHeader, stops.join(" | ")).toBe(8);
    expect(await dropdown.isVisible()).toBe(false);

    // Enter opens it (aria-expanded follows); Escape closes it and gives focus back to the button.
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    await toggle.focus();
    await page.keyboard.press("Enter");
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    await dropdown.waitFor({ state: "visible" });
    await page.keyboard.press("Tab");
    expect(await focusIsIn('[data-testid="login-dropdown"]')).toBe(true);
    expect((await focused()).tag).toBe("input");
    await page.keyboard.press("Escape");
    expect(await dropdown.isVisible()).toBe(false);
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await toggle.evaluate((b) => b === document.activeElement)).toBe(true);

    // Space opens it; Tab past its last link closes it.
    await page.keyboard.press("Space");
    await dropdown.waitFor({ state: "visible" });
    await dropdown.getByRole("link", { name: "Not registered yet" }).focus();
    await page.keyboard.press("Tab");
    expect(await dropdown.isVisible()).toBe(false);
    expect(await focusIsIn('[data-testid="login-dropdown"]')).toBe(false);

    // A click opens it; a click elsewhere closes it.
    await toggle.click();
    await dropdown.waitFor({ state: "visible" });
    await page.mouse.click(10, 800);
    await dropdown.waitFor({ state: "hidden" });
  });

  it("names Resources without its glyph", async () => {
    await open("/");
    expect(await accessibleName("header nav details > summary")).toBe("Resources");
  });

  it("shows Compare (0) and (1) as a disabled link: no Tab stop, no /compare?ids=", async () => {
    await open("/?selectedTab=newest&search=&page=1");
    const compare = page.locator("main").getByText(/^Compare \(\d\)$/);
    expect(await compare.getAttribute("aria-disabled")).toBe("true");
    expect(await compare.getAttribute("href")).toBeNull();
    await compare.focus();
    expect((await focused()).text).not.toBe("Compare (0)");
    await compare.click({ force: true });
    await page.waitForTimeout(300);
    expect(new URL(page.url()).pathname).toBe("/");

    // Two ticked: a link to the comparison.
    const boxes = page.locator('[data-testid="offers-table"] tbody input[type="checkbox"]');
    await boxes.nth(0).check();
    await expect.poll(() => compare.textContent()).toBe("Compare (1)");
    expect(await compare.getAttribute("href")).toBeNull();
    await boxes.nth(1).check();
    const link = page.getByRole("link", { name: "Compare (2)" });
    expect(await link.getAttribute("href")).toMatch(/^\/compare\?ids=\d+,\d+$/);
  });
});
