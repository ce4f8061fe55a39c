// Logged-in pages in Chromium (issue #16, docs/decisions/0029): a signed-in browser that
// runs the page's script is served the page every signed-in visitor shares, and fills in
// its own name and stars with one request, after a full load and after a client navigation;
// the browser keeps that answer while its version holds (docs/decisions/0047).
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_COOKIE } from "#core/auth/sessions.ts";
import { PERSONAL_VERSION_COOKIE, SCRIPT_COOKIE } from "#contracts/personal.ts";
import type { OfferSearchResult } from "#contracts/offers.ts";
import type { Watchlist } from "#contracts/watchlist.ts";
import { browserAvailable, launchBrowser } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/server.ts";
import { sessionCookie, signInWithRoles } from "../helpers/staff.ts";

describe.skipIf(!browserAvailable)("logged-in pages from the shared copy, in Chromium", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;
  let page: Page;
  let pat: Awaited<ReturnType<typeof signInWithRoles>>;
  let other: Awaited<ReturnType<typeof signInWithRoles>>;
  let offer: { id: number; name: string };
  const errors: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({
      seed: { networks: 2, offers: 12, trafficSources: 1 },
      env: { PAGE_CACHE_SECONDS: "60" },
    });
    pat = await signInWithRoles(server, [], "Pat Personal");
    other = await signInWithRoles(server, [], "Olga Other");
    const search = await server.app.inject({ method: "POST", url: "/api/offers/search", payload: {} });
    const first = search.json<OfferSearchResult>().offers[0];
    offer = { id: first.id, name: first.name };
    await followFromElsewhere();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    await context.addCookies([sessionCookie(pat, server.baseUrl)]);
    page = await context.newPage();
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Pat follows the offer through the API: another device than this browser. */
  async function followFromElsewhere() {
    const res = await server.app.inject({
      method: "POST",
      url: "/api/account/watchlist",
      headers: pat.headers,
      payload: { offerId: offer.id },
    });
    expect(res.statusCode).toBe(201);
  }

  /** Another signed-in browser with the script renders the shared copy first, so Pat's load is a reuse of it. */
  const warmShared = (path: string) =>
    server.app.inject({
      url: path,
      headers: { cookie: `${AUTH_COOKIE}=${other.headers.authorization.slice(7)}; ${SCRIPT_COOKIE}=1` },
    });
  const accountLink = () => page.getByTestId("account-link");
  /** The offer's star: its row on a search page, the page's own on the offer page. */
  const star = (followed: boolean) =>
    page
      .locator(`tr[data-offer-id="${offer.id}"], article > header`)
      .getByRole("button", { name: `${followed ? "Unfollow" : "Follow"} ${offer.name}`, exact: true })
      .first();
  const loadShared = async (path: string) => {
    await warmShared(path);
    const res = await page.goto(`${server.baseUrl}${path}`, { waitUntil: "networkidle" });
    expect(res?.headers()["x-page-cache"]).toBe("hit");
  };

  it("after a full load and a client navigation, the header names the user and the followed offer's star is filled", async () => {
    // The first page: the browser has not run the script yet, so it gets its own page, and marks itself.
    await page.goto(`${server.baseUrl}/faq`, { waitUntil: "networkidle" });
    expect(await accountLink().innerText()).toBe("Pat Personal");
    expect(await page.evaluate(() => document.cookie)).toContain(`${SCRIPT_COOKIE}=1`);

    await loadShared("/?page=1");
    await expect.poll(() => accountLink().innerText()).toBe("Pat Personal");
    expect(await accountLink().getAttribute("title")).toBe(pat.email);
    expect(await star(true).getAttribute("aria-pressed")).toBe("true");

    // A client navigation to the offer page: its own star too.
    await page.locator(`tr[data-offer-id="${offer.id}"] a[href^="/offer/"]`).first().click();
    await page.waitForURL((u) => u.pathname.startsWith(`/offer/${offer.id}/`));
    await star(true).waitFor();
    expect(await accountLink().innerText()).toBe("Pat Personal");
    const offerPath = new URL(page.url()).pathname;

    // A full load of the offer page from the shared copy, then a client navigation back to the search.
    await loadShared(offerPath);
    await star(true).waitFor();
    expect(await accountLink().innerText()).toBe("Pat Personal");
    await page.locator('article > header a[href="/"]').click();
    await page.waitForURL((u) => u.pathname === "/");
    await star(true).waitFor();
    expect(await page.content()).not.toContain(other.user.name);
    expect(errors).toEqual([]);
  });

  it("asks for the personal parts once per version: navigations and loads reuse the kept answer until a follow elsewhere changes it", async () => {
    // A browser of its own: the first test's loads kept this version's answer already.
    await page.context().close();
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    await context.addCookies([
      sessionCookie(pat, server.baseUrl),
      { name: SCRIPT_COOKIE, value: "1", url: server.baseUrl },
    ]);
    page = await context.newPage();
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    // What reaches the server: requests of the personal answer the browser did not take from its cache.
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    const sent = new Map<string, string>();
    const fromCache = new Set<string>();
    cdp.on("Network.requestWillBeSent", (e) => {
      if (e.request.url.includes("/api/account/personal")) sent.set(e.requestId, e.request.url);
    });
    cdp.on("Network.requestServedFromCache", (e) => fromCache.add(e.requestId));
    cdp.on("Network.responseReceived", (e) => {
      if (e.response.fromDiskCache || e.response.fromPrefetchCache) fromCache.add(e.requestId);
    });
    const asked = () => [...sent].filter(([id]) => !fromCache.has(id)).map(([, url]) => new URL(url).search);
    const version = async () => (await page.context().cookies()).find((c) => c.name === PERSONAL_VERSION_COOKIE)?.value;

    await loadShared("/?page=1");
    await star(true).waitFor();
    const first = await version();
    expect(first).toMatch(/^[\w-]{22}$/);
    await expect.poll(asked).toEqual([`?v=${first}`]);

    // A client navigation and a full load of another shared page: the same version, nothing asked.
    await page.locator(`tr[data-offer-id="${offer.id}"] a[href^="/offer/"]`).first().click();
    await page.waitForURL((u) => u.pathname.startsWith(`/offer/${offer.id}/`));
    await star(true).waitFor();
    await loadShared("/faq");
    await expect.poll(() => accountLink().innerText()).toBe("Pat Personal");
    expect(sent.size).toBe(2); // the load asked again, and its cache answered
    expect(asked()).toEqual([`?v=${first}`]);

    // Pat unfollows on another device; this browser's next navigation shows it.
    const items = (await server.app.inject({ url: "/api/account/watchlist", headers: pat.headers })).json<Watchlist>();
    const item = items.offers.find((o) => o.offerId === offer.id)!;
    const removed = await server.app.inject({
      method: "DELETE",
      url: `/api/account/watchlist/${item.id}`,
      headers: pat.headers,
    });
    expect(removed.statusCode).toBeLessThan(300);
    await page.getByRole("link", { name: "OfferAtlas home" }).first().click();
    await page.waitForURL((u) => u.pathname === "/");
    await star(false).waitFor();
    const second = await version();
    expect(second).not.toBe(first);
    expect(asked()).toEqual([`?v=${first}`, `?v=${second}`]);

    await followFromElsewhere(); // as the next test expects
    expect(errors).toEqual([]);
  });

  it("the star still toggles on a shared page, and the next load shows the new state", async () => {
    const following = async () =>
      (await server.app.inject({ url: "/api/account/watchlist", headers: pat.headers }))
        .json<Watchlist>()
        .offers.map((o) => o.offerId);
    await loadShared("/?page=1");
    await star(true).click();
    await star(false).waitFor();
    expect(await following()).toEqual([]);

    await loadShared("/?page=1");
    await expect.poll(() => accountLink().innerText()).toBe("Pat Personal");
    expect(await star(false).getAttribute("aria-pressed")).toBe("false");
    await star(false).click();
    await star(true).waitFor();
    expect(await following()).toEqual([offer.id]);
    expect(errors).toEqual([]);
  });

  it("logging out takes the kept personal answer out of the browser's cache, not only the cookies", async () => {
    await loadShared("/faq");
    await expect.poll(() => accountLink().innerText()).toBe("Pat Personal");
    const version = (await page.context().cookies()).find((c) => c.name === PERSONAL_VERSION_COOKIE)!.value;
    /** Whether the browser still has the answer under this version, asking nothing of the server. */
    const kept = () =>
      page.evaluate(
        (v) =>
          fetch(`/api/account/personal?v=${v}`, { cache: "only-if-cached", mode: "same-origin" }).then(
            (r) => r.ok,
            () => false,
          ),
        version,
      );
    expect(await kept()).toBe(true);

    await page.locator("header").getByRole("button", { name: "Logout" }).click();
    await page.locator("header").getByRole("link", { name: "Login", exact: true }).waitFor();
    const names = (await page.context().cookies()).map((c) => c.name);
    expect(names).not.toContain(AUTH_COOKIE);
    expect(names).not.toContain(PERSONAL_VERSION_COOKIE);
    await expect.poll(kept).toBe(false);
    // The console's only error is the probe's own miss.
    expect(errors.filter((e) => !e.includes("ERR_CACHE_MISS"))).toEqual([]);
  });
});
