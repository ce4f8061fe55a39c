// The site shell in a real browser: navigation, footer, logo reset, 404 page, ad slots.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, holdScripts, launchBrowser, pageStarted } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/server.ts";

describe.skipIf(!browserAvailable)("site shell in Chromium", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startTestServer({ seed: { networks: 12, offers: 300, trafficSources: 4 } });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("shows every navigation and footer link of the spec", async () => {
    await page.goto(`${server.baseUrl}/`);
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const [name, href] of [
      ["Login", "/login"],
      ["Register", "/register"],
      ["Advertise", "/advertise"],
      ["Add Your Network", "/add-your-network"],
      ["Help", "/contact"],
    ]) {
      await expect(nav.getByRole("link", { name, exact: true }).getAttribute("href")).resolves.toBe(href);
    }
    await expect(nav.getByRole("link", { name: "OfferAtlas home" }).getAttribute("href")).resolves.toBe(
      "/?selectedTab=topOffers&search=&page=1",
    );
    const footer = page.getByRole("navigation", { name: "Footer" });
    for (const href of ["/", "/login", "/register", "/contact", "/faq", "/links", "/privacy", "/terms"]) {
      expect(await footer.locator(`a[href="${href}"]`).count(), href).toBe(1);
    }
    await expect(footer.locator('a[href="/faq"]').getAttribute("target")).resolves.toBe("_blank");
    // External footer links exist and open elsewhere.
    const external = page.locator("footer a[href^='https://']");
    expect(await external.count()).toBeGreaterThanOrEqual(5);
  });

  // The browser renders with Preact's compat layer (docs/decisions/0035): it must take over the
  // server's document, not draw a second one beside it or drop the head's stylesheet.
  it("hydrates the server's document in place, then navigates without a reload", async () => {
    const own = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    own.on("pageerror", (error) => errors.push(error.message));
    // Once the parser is done and before any module runs: the server's own nodes.
    await own.addInitScript(() => {
      document.addEventListener("readystatechange", () => {
        if (document.readyState !== "interactive") return;
        const w = window as unknown as Record<string, unknown>;
        w.__serverMain = document.getElementById("main");
        w.__serverStylesheet = document.querySelector('link[rel="stylesheet"]');
      });
    });
    await own.goto(`${server.baseUrl}/`, { waitUntil: "networkidle" });
    // Hydrated: the login panel opens on hover, which only the browser's code does.
    await own.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Login", exact: true }).hover();
    await own.getByTestId("login-dropdown").waitFor({ state: "visible" });
    const oneServerDocument = {
      html: 1,
      bodies: 1,
      navs: 1,
      mode: "CSS1Compat",
      sameMain: true,
      stylesheetInHead: true,
    };
    const dom = () =>
      own.evaluate(() => {
        const w = window as unknown as Record<string, Element | undefined>;
        return {
          html: document.querySelectorAll("html").length,
          bodies: document.querySelectorAll("body").length,
          navs: document.querySelectorAll('nav[aria-label="Main"]').length,
          mode: document.compatMode,
          sameMain: document.getElementById("main") === w.__serverMain,
          stylesheetInHead: w.__serverStylesheet?.parentNode === document.head,
        };
      });
    expect(await dom()).toEqual(oneServerDocument);
    // A client navigation keeps the same document (no reload) and still one of everything.
    await own.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
    await own.getByRole("navigation", { name: "Footer" }).locator('a[href="/privacy"]').click();
    await own.waitForURL(/\/privacy$/);
    await own.getByRole("heading", { level: 1 }).waitFor();
    expect(await own.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
    expect(await dom()).toEqual(oneServerDocument);
    // The head's links kept their own addresses: the page's canonical moved, the stylesheet did not.
    const links = await own.evaluate(() =>
      [...document.head.querySelectorAll("link")].map((l) => `${l.rel} ${new URL(l.href).pathname}`),
    );
    expect(links[0]).toMatch(/^stylesheet \/assets\/app-[\w-]+\.css$/);
    expect(links).toContain("canonical /privacy");
    expect(links.filter((l) => l.startsWith("stylesheet"))).toHaveLength(1);
    expect(errors).toEqual([]);
    await own.close();
  });

  it("opens the login dropdown on hover with the spec's fields", async () => {
    await page.goto(`${server.baseUrl}/`);
    const dropdown = page.getByTestId("login-dropdown");
    await expect(dropdown.isVisible()).resolves.toBe(false);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Login", exact: true }).hover();
    await dropdown.waitFor({ state: "visible" });
    await expect(dropdown.locator('input[name="email"]').getAttribute("type")).resolves.toBe("email");
    await expect(dropdown.locator('input[type="password"]').count()).resolves.toBe(1);
    await expect(dropdown.getByText("Remember Me").count()).resolves.toBe(1);
    await expect(dropdown.getByRole("button", { name: "Log In" }).count()).resolves.toBe(1);
    await expect(dropdown.getByRole("link", { name: "Password recovery" }).getAttribute("href")).resolves.toBe(
      "/forgot-password",
    );
    await expect(dropdown.getByRole("link", { name: "Not registered yet" }).getAttribute("href")).resolves.toBe(
      "/register",
    );
  });

  it("opens the login dropdown for a pointer that rested on Login before the page started", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const release = await holdScripts(context);
    const early = await context.newPage();
    await early.goto(`${server.baseUrl}/`, { waitUntil: "domcontentloaded" });
    await early.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Login", exact: true }).hover();
    expect(await early.locator("html[data-started]").count()).toBe(0);
    release();
    await pageStarted(early);
    await early.getByTestId("login-dropdown").waitFor({ state: "visible" });
    await context.close();
  });

  it("follows the logo back to the reset home page, scrolled to the top", async () => {
    await page.goto(`${server.baseUrl}/networks?search=ad&page=2`);
    await page.evaluate(() => window.scrollTo(0, 600));
    await page.getByRole("link", { name: "OfferAtlas home" }).first().click();
    await page.waitForURL(`${server.baseUrl}/?selectedTab=topOffers&search=&page=1`);
    await page.getByRole("heading", { name: "Enter a search term below to find and compare offers" }).waitFor();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });

  it("shows the 404 page's exact text for an unknown path, with the link home", async () => {
    const res = await page.goto(`${server.baseUrl}/definitely/not/here`);
    expect(res?.status()).toBe(404);
    await page.getByText("Sorry, the page you're looking for could not be found").waitFor();
    await page.getByText("This page could not be found").waitFor();
    await page.getByRole("link", { name: "Click here to go back to home page" }).click();
    await page.waitForURL(`${server.baseUrl}/`);
  });

  it("reserves ad slots at their exact sizes so nothing shifts", async () => {
    await page.goto(`${server.baseUrl}/`);
    const box = await page.locator('[data-ad-size="728x90"]').first().boundingBox();
    expect(box && [Math.round(box.width), Math.round(box.height)]).toEqual([728, 90]);
    const small = await page.locator('[data-ad-size="125x125"]').first().boundingBox();
    expect(small && [Math.round(small.width), Math.round(small.height)]).toEqual([125, 125]);
  });

  it("fits the container widths of the spec's breakpoints", async () => {
    for (const [viewport, width] of [
      [1280, 1170],
      [1000, 971],
      [800, 750],
    ] as const) {
      await page.setViewportSize({ width: viewport, height: 800 });
      await page.goto(`${server.baseUrl}/`);
      const w = await page.locator("nav[aria-label=Main]").evaluate((el) => el.getBoundingClientRect().width);
      expect(Math.round(w), `viewport ${viewport}`).toBe(width);
    }
  });
});
