// How pages load ahead and recover (docs/product.md §4, §8, §9): links in view are
// prefetched once the browser is idle, but not with data saver on or on 2g; a page
// whose code fails to load during a client navigation is loaded in full, the target
// rather than the page the visitor was leaving. A page's scripts are asked for once it has
// painted (app/ui/shell/PageScripts.tsx). A page starts without Intl, whose locale data a
// browser loads on first use (contracts/numbers.ts).
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser, pageStarted } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/server.ts";

/** A connection the page reads through navigator.connection (Network Information API). */
const withConnection = (context: BrowserContext, connection: { saveData: boolean; effectiveType: string }) =>
  context.addInitScript((c) => {
    Object.defineProperty(navigator, "connection", { value: c, configurable: true });
  }, connection);

/** An offer page's data or its route module: what a prefetch of an offer link fetches. */
const OFFER_FETCH = /\/offer\/\d+\/[^/?]*\.data|\/assets\/offer-[\w-]+\.js/;

describe.skipIf(!browserAvailable)("page loading in Chromium", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer({ seed: { networks: 6, offers: 80, trafficSources: 2 } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A fresh page, with the requests it makes. */
  async function open(connection?: { saveData: boolean; effectiveType: string }) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    if (connection) await withConnection(context, connection);
    const page = await context.newPage();
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    return { context, page, requests };
  }

  /** The offer links the results show in view. */
  const offerLinks = (page: Page) => page.locator('main a[href^="/offer/"]');

  it("prefetches the offer pages linked in view once the browser is idle, without a click", async () => {
    const { context, page, requests } = await open();
    await page.goto(`${server.baseUrl}/`);
    await offerLinks(page).first().waitFor();
    await expect.poll(() => requests.filter((u) => OFFER_FETCH.test(u)).length, { timeout: 8_000 }).toBeGreaterThan(0);
    // The data of a linked page, not the page the visitor is on.
    const data = requests.filter((u) => /\.data(\?|$)/.test(u)).map((u) => new URL(u).pathname);
    const linked = await offerLinks(page).evaluateAll((links) =>
      links.map((a) => new URL((a as HTMLAnchorElement).href).pathname),
    );
    expect(data.some((p) => linked.includes(p.replace(/\.data$/, "")))).toBe(true);
    expect(page.url()).toBe(`${server.baseUrl}/`);
    await context.close();
  });

  // Side by side: each waits out the idle time to show nothing came.
  it.concurrent.for([
    ["data saver is on", { saveData: true, effectiveType: "4g" }],
    ["the connection is 2g", { saveData: false, effectiveType: "2g" }],
  ] as const)("prefetches nothing when %s", async ([, connection], { expect }) => {
    const { context, page, requests } = await open(connection);
    await page.goto(`${server.baseUrl}/`);
    await offerLinks(page).first().waitFor();
    // Past the quiet time (2,000 ms) and the idle timeout (2,000 ms more at most).
    await page.waitForTimeout(5_000);
    expect(requests.filter((u) => OFFER_FETCH.test(u))).toEqual([]);
    await context.close();
  });

  it("loads the target page in full when its code fails to load during a client navigation", async () => {
    // A 2g connection keeps the prefetch from loading the offer page's code before the click.
    const { context, page } = await open({ saveData: false, effectiveType: "2g" });
    await page.goto(`${server.baseUrl}/`);
    const module = await page.waitForFunction(
      () =>
        (window as unknown as { __reactRouterManifest?: { routes: Record<string, { module: string }> } })
          .__reactRouterManifest?.routes["routes/offers/offer"]?.module,
    );
    const chunk = (await module.jsonValue()) as string;
    let aborted = 0;
    await page.route(
      (url) => url.pathname === chunk,
      (route) => {
        aborted++;
        return route.abort("connectionreset");
      },
      { times: 1 },
    );
    await page.evaluate(() => ((window as unknown as { leftBehind: boolean }).leftBehind = true));
    const link = offerLinks(page).first();
    const target = new URL((await link.getAttribute("href"))!, server.baseUrl);
    const name = (await link.innerText()).trim();
    await link.click();
    await page.waitForURL((url) => url.pathname === target.pathname, { timeout: 10_000 });
    await page.getByRole("heading", { level: 1, name }).waitFor();
    expect(aborted).toBe(1);
    // A new document: the old page's state is gone.
    expect(await page.evaluate(() => (window as unknown as { leftBehind?: boolean }).leftBehind)).toBeUndefined();
    await context.close();
  });

  it("follows the site's plain links within the page, and leaves clicks with a key held to the browser", async () => {
    // app/ui/Link.tsx: links to a path are plain anchors; one listener navigates for them all.
    const { context, page } = await open();
    await page.goto(`${server.baseUrl}/`);
    await pageStarted(page);
    const plain = page.locator('main a[data-discover="plain"][href^="/offer/"]');
    expect(await plain.count()).toBeGreaterThan(0);
    // What the listener did with each click: a listener on window runs after it, notes whether it
    // took the click, and keeps the browser from following the link itself.
    const taken = await page.evaluate(() => {
      const seen: boolean[] = [];
      const note = (event: Event) => {
        seen.push(event.defaultPrevented);
        event.preventDefault();
      };
      window.addEventListener("click", note);
      const link = document.querySelector<HTMLAnchorElement>('main a[data-discover="plain"]')!;
      const click = (init: MouseEventInit) =>
        link.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, button: 0, ...init }));
      for (const init of [{ ctrlKey: true }, { shiftKey: true }, { metaKey: true }, { altKey: true }, { button: 1 }])
        click(init);
      link.target = "_blank";
      click({});
      window.removeEventListener("click", note);
      return seen;
    });
    expect(taken).toEqual([false, false, false, false, false, false]);
    // A link to the page itself replaces the history entry instead of adding one, as <Link>'s does.
    await page.evaluate(() => ((window as unknown as { stayed?: boolean }).stayed = true));
    const entries = await page.evaluate(() => history.length);
    await page.evaluate(() => {
      const self = document.createElement("a");
      self.href = "/";
      self.dataset.discover = "plain";
      self.textContent = "Home again";
      document.querySelector("main")!.append(self);
    });
    await page.getByText("Home again").click();
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => history.length)).toBe(entries);
    // A plain click: a client navigation, in the same document.
    const href = (await plain.nth(1).getAttribute("href"))!;
    await plain.nth(1).click();
    await page.waitForURL((url) => url.pathname === href);
    await page.locator("h1").first().waitFor();
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    expect(await page.evaluate(() => history.length)).toBe(entries + 1);
    await context.close();
  });

  it("keeps /links' lists as the server wrote them while the page starts, and renders the next page's", async () => {
    // app/ui/KeptList.tsx. Over 500 listings, so /links has a second page.
    const big = await startTestServer({ seed: { networks: 6, offers: 520, trafficSources: 2 } });
    try {
      const { context, page } = await open();
      // An item the server did not write, added before the page's script runs: hydrating the list
      // would remove it (Preact drops what its render does not claim); keeping the list does not.
      await page.addInitScript(() =>
        document.addEventListener("DOMContentLoaded", () => {
          const extra = document.createElement("li");
          extra.id = "not-from-the-server";
          document.querySelector('section[aria-labelledby="links-offers"] ul')?.append(extra);
        }),
      );
      await page.goto(`${big.baseUrl}/links`);
      await pageStarted(page);
      const offers = page.locator('section[aria-labelledby="links-offers"] li a');
      const first = await offers.first().getAttribute("href");
      expect(await offers.count()).toBeGreaterThan(100);
      expect(await page.locator("#not-from-the-server").count()).toBe(1);
      // Its links are followed like any plain link; the next page of the list is rendered.
      await page.evaluate(() => ((window as unknown as { stayed?: boolean }).stayed = true));
      await page.getByRole("link", { name: "Page 2" }).click();
      await page.waitForURL((url) => url.search === "?page=2");
      await expect.poll(() => offers.first().getAttribute("href")).not.toBe(first);
      expect(await offers.count()).toBeGreaterThan(0);
      expect(await page.locator("#not-from-the-server").count()).toBe(0);
      const href = (await offers.first().getAttribute("href"))!;
      await offers.first().click();
      await page.waitForURL((url) => url.pathname === href);
      expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
      await context.close();
    } finally {
      await big.close();
    }
  });

  it("hydrates the header, the page and the footer in the server's own elements, each live, and keeps them across navigations", async () => {
    // app/ui/shell/HydrateLater.tsx: each part suspends during the first hydration and resumes at
    // the server's element. A part that resumed elsewhere, or a boundary that changed shape after
    // the first hydration, would draw a new element in its place.
    const { context, page } = await open();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.addInitScript(() =>
      document.addEventListener("DOMContentLoaded", () => {
        const w = window as unknown as Record<string, unknown>;
        w.__parts = [
          document.querySelector("header"),
          document.getElementById("main"),
          document.querySelector("footer"),
        ];
      }),
    );
    const sameParts = () =>
      page.evaluate(() => {
        const parts = (window as unknown as { __parts: Element[] }).__parts;
        const now = [
          document.querySelector("header"),
          document.getElementById("main"),
          document.querySelector("footer"),
        ];
        return parts.map((part, i) => part === now[i] && document.querySelectorAll(part.tagName).length === 1);
      });
    await page.goto(`${server.baseUrl}/`);
    await pageStarted(page);
    expect(await sameParts()).toEqual([true, true, true]);
    // Each part is live: the header's login panel opens on hover (the browser's code only), and a
    // result row's compare box, in the page part, counts in the compare bar.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Login", exact: true }).hover();
    await page.getByTestId("login-dropdown").waitFor({ state: "visible" });
    await page.locator('[data-testid="offers-table"] tbody input[type="checkbox"]').first().check();
    await expect
      .poll(() =>
        page
          .locator("main")
          .getByText(/^Compare \(\d\)$/)
          .textContent(),
      )
      .toBe("Compare (1)");
    // The footer's links navigate in the page (no reload), and the parts stay the server's elements.
    await page.evaluate(() => ((window as unknown as { stayed?: boolean }).stayed = true));
    await page.getByRole("navigation", { name: "Footer" }).locator('a[href="/privacy"]').click();
    await page.waitForURL(/\/privacy$/);
    await page.getByRole("heading", { level: 1 }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    expect(await sameParts()).toEqual([true, true, true]);
    // The page's new content is drawn in the kept <main>.
    await expect(page.locator("#main h1").textContent()).resolves.toMatch(/privacy/i);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("asks for the page's scripts only after its first contentful paint, then starts it", async () => {
    const { context, page, requests } = await open();
    const html = await (await fetch(`${server.baseUrl}/`)).text();
    // No <link rel="modulepreload"> for the preload scanner to fetch beside the stylesheet.
    expect(html).not.toMatch(/<link\b[^>]*\brel="modulepreload"/);
    await page.goto(`${server.baseUrl}/`);
    await pageStarted(page);
    // The no-JavaScript "Apply filters" button is gone: the page runs.
    expect(await page.getByRole("button", { name: "Apply filters" }).count()).toBe(0);
    const timing = await page.evaluate(() => ({
      paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime,
      scripts: performance
        .getEntriesByType("resource")
        .filter((entry) => new URL(entry.name).pathname.startsWith("/assets/") && entry.name.endsWith(".js"))
        .map((entry) => entry.startTime),
    }));
    expect(timing.paint).toBeGreaterThan(0);
    expect(timing.scripts.length).toBeGreaterThan(0);
    expect(Math.min(...timing.scripts)).toBeGreaterThanOrEqual(timing.paint!);
    expect(requests.some((u) => /\/assets\/entry\.client-[\w-]+\.js$/.test(u))).toBe(true);
    await context.close();
  });

  it("starts every public page without an Intl formatter, whose locale data costs a phone 50–60 ms", async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    // Counts every way a page could reach ICU's locale data.
    await context.addInitScript(() => {
      const calls: string[] = [];
      (window as unknown as { intlCalls: string[] }).intlCalls = calls;
      for (const name of ["NumberFormat", "DateTimeFormat", "PluralRules", "Collator", "RelativeTimeFormat"] as const) {
        const original = Intl[name] as unknown as new (...args: unknown[]) => object;
        (Intl as unknown as Record<string, unknown>)[name] = new Proxy(original, {
          construct: (target, args) => (calls.push(name), Reflect.construct(target, args)),
        });
      }
      const methods: [object, string[]][] = [
        [Number.prototype, ["toLocaleString"]],
        [Date.prototype, ["toLocaleString", "toLocaleDateString", "toLocaleTimeString"]],
        [String.prototype, ["localeCompare"]],
      ];
      for (const [proto, names] of methods)
        for (const name of names) {
          const original = (proto as Record<string, (...args: unknown[]) => unknown>)[name];
          Object.defineProperty(proto, name, {
            value(this: unknown, ...args: unknown[]) {
              calls.push(name);
              return original.apply(this, args);
            },
          });
        }
    });
    const page = await context.newPage();
    const offer = (await (
      await fetch(`${server.baseUrl}/api/offers/search`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      })
    ).json()) as { offers: { id: number; slug: string; networkId: number }[] };
    const first = offer.offers[0];
    for (const path of [
      "/",
      "/?search=casino&tab=highestPayout",
      `/offer/${first.id}/${first.slug}`,
      `/network/${first.networkId}/x`,
      "/networks",
      "/traffic-sources",
      "/pay-per-call-offers",
      "/links",
    ]) {
      await page.goto(`${server.baseUrl}${path}`, { waitUntil: "networkidle" });
      expect(await page.evaluate(() => (window as unknown as { intlCalls: string[] }).intlCalls), path).toEqual([]);
    }
    await context.close();
  });
});
