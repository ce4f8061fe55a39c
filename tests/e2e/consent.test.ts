// Third-party tags and the consent banner in Chromium. Nothing leaves the machine:
// every request not for the test server is recorded, then answered with a local
// stand-in (the three tag scripts) or aborted. Without tags nothing third-party is
// even tried; with tags nothing is tried before the visitor accepts, all three
// scripts load after "Accept", none after "Reject", and the answer holds across
// pages and can be changed from the footer. The policy (CSP) must let the tags
// through: a script it refused would never reach the recorder.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { browserAvailable, launchBrowser, pageStarted } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/server.ts";
import { sessionCookie, signInWithRoles } from "../helpers/staff.ts";

/** The local stand-in for gpt.js: records what the page asks of it and runs its queue as GPT does. */
const GPT_STUB = `(function () {
  var g = window.googletag, calls = (window.__gptCalls = []);
  g.pubads = function () { return {}; };
  g.setConfig = function (c) { calls.push(["setConfig", c]); };
  g.enableServices = function () { calls.push(["enableServices"]); };
  g.defineSlot = function (path, size, id) {
    calls.push(["defineSlot", path, size, id]);
    return { addService: function () { return this; } };
  };
  g.display = function (id) { calls.push(["display", id, document.getElementById(id) ? "found" : "missing"]); };
  g.destroySlots = function () { calls.push(["destroySlots"]); };
  var queued = g.cmd;
  g.cmd = { push: function (f) { f(); } };
  for (var i = 0; i < queued.length; i++) queued[i]();
})();`;
const STUBS: [RegExp, string][] = [
  [/^https:\/\/www\.googletagmanager\.com\/gtag\/js\?id=/, "window.__analyticsRan = true;"],
  [/^https:\/\/connect\.facebook\.net\/en_US\/fbevents\.js$/, "window.__pixelRan = true;"],
  [/^https:\/\/securepubads\.g\.doubleclick\.net\/tag\/js\/gpt\.js$/, GPT_STUB],
];

const ANALYTICS = "https://www.googletagmanager.com/gtag/js?id=G-ABC123DEF4";
const PIXEL = "https://connect.facebook.net/en_US/fbevents.js";
const GPT = "https://securepubads.g.doubleclick.net/tag/js/gpt.js";

describe.skipIf(!browserAvailable)("third-party tags and consent in Chromium", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;
  let admin: Awaited<ReturnType<typeof signInWithRoles>>;

  beforeAll(async () => {
    server = await startTestServer({ seed: { networks: 4, offers: 20, trafficSources: 2 } });
    browser = await launchBrowser();
    admin = await signInWithRoles(server, ["admin"], "Ada Admin");
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A browser of its own; `tried` lists every third-party address its pages asked for, in order. */
  async function visitor(session?: typeof admin) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    if (session) await context.addCookies([sessionCookie(session, server.baseUrl)]);
    const tried: string[] = [];
    const refused: string[] = [];
    await context.route("**/*", async (route) => {
      const url = route.request().url();
      if (url.startsWith(`${server.baseUrl}/`)) return route.continue();
      tried.push(url);
      const stub = STUBS.find(([pattern]) => pattern.test(url));
      if (stub) return route.fulfill({ status: 200, contentType: "text/javascript", body: stub[1] });
      return route.abort();
    });
    const page = await context.newPage();
    // The policy's refusals are reported on the console.
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    return { context, page, tried, refused };
  }
  // The footer's "Cookie settings" answers once its part has hydrated, the page's last (HydrateLater):
  // the network can fall idle before that on a busy machine.
  const open = async (page: Page, where: string) => {
    const answer = await page.goto(`${server.baseUrl}${where}`, { waitUntil: "networkidle" });
    expect(answer?.status()).toBe(200);
    await pageStarted(page);
  };
  const banner = (page: Page) => page.getByRole("dialog", { name: "Cookies and third-party services" });
  const cookieSettings = (page: Page) => page.locator("footer").getByRole("button", { name: "Cookie settings" });
  const consentCookie = async (context: BrowserContext) =>
    (await context.cookies()).find((c) => c.name === "oa_consent")?.value;
  const houseBanner = (page: Page) => page.locator('[data-region="top-ads"] a[data-ad-size="728x90"]');
  const gptBanner = (page: Page) => page.locator('[data-ad-unit="/21812345/offeratlas/header"]');

  it("without tags: no banner, no footer link, house ads, and nothing third-party is tried", async () => {
    const { context, page, tried } = await visitor();
    await open(page, "/");
    await open(page, "/networks");
    await page.locator("footer").waitFor();
    expect(await banner(page).count()).toBe(0);
    expect(await cookieSettings(page).count()).toBe(0);
    expect(await houseBanner(page).count()).toBe(1);
    expect(tried).toEqual([]);
    await context.close();
  });

  it("an admin sets the tags at /admin/tags; a bad id is refused beside its field", async () => {
    const { context, page } = await visitor(admin);
    await open(page, "/admin/tags");
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Tags" }).waitFor();
    await page.getByRole("heading", { level: 1, name: "Third-party tags" }).waitFor();
    await page.getByLabel("Google Analytics 4 measurement id").fill("UA-12345-1");
    await page.getByLabel("Meta Pixel id").fill("1234567890123456");
    await page.getByLabel("Ad Manager network code").fill("21812345");
    await page.getByLabel("Ad unit for 728x90").fill("offeratlas/header");
    await page.getByRole("button", { name: "Save tags" }).click();
    const error = page.locator('[data-field-error="analyticsId"]');
    await error.waitFor();
    expect(await error.textContent()).toBe(
      "Analytics id must be a Google Analytics 4 measurement id such as G-ABC123DEF4",
    );
    expect(await page.getByLabel("Meta Pixel id").inputValue()).toBe("1234567890123456"); // what was typed stays
    expect(await server.db.query(sql`SELECT 1 FROM site_tags`)).toHaveLength(0);

    await page.getByLabel("Google Analytics 4 measurement id").fill("g-abc123def4");
    await page.getByRole("button", { name: "Save tags" }).click();
    await page.getByTestId("save-result").getByText("Saved.", { exact: false }).waitFor();
    // The form shows what was stored (the id in capitals).
    await expect.poll(() => page.getByLabel("Google Analytics 4 measurement id").inputValue()).toBe("G-ABC123DEF4");
    const [row] = await server.db.query<{ analytics_id: string; gpt_slots: object; consent_required: boolean }>(
      sql`SELECT analytics_id, gpt_slots, consent_required FROM site_tags`,
    );
    expect(row).toEqual({
      analytics_id: "G-ABC123DEF4",
      gpt_slots: { "728x90": "offeratlas/header" },
      consent_required: true,
    });
    await context.close();
  });

  it("asks first: nothing loads before Accept; after it all three tags load, across pages", async () => {
    const { context, page, tried, refused } = await visitor();
    await open(page, "/");
    await banner(page).waitFor();
    expect(tried).toEqual([]);
    expect(await houseBanner(page).count()).toBe(1);
    expect(await consentCookie(context)).toBeUndefined();
    // Reject is as easy as Accept: two buttons of the same look, side by side.
    const [reject, accept] = [
      banner(page).getByRole("button", { name: "Reject" }),
      banner(page).getByRole("button", { name: "Accept" }),
    ];
    expect(await reject.getAttribute("class")).toBe(await accept.getAttribute("class"));

    await accept.click();
    await expect.poll(() => [...tried].sort()).toEqual([PIXEL, ANALYTICS, GPT].sort());
    expect(await banner(page).count()).toBe(0);
    expect(await consentCookie(context)).toBe("accepted");
    // The header slot is now the ad server's, at its exact size; the stand-in saw it defined.
    await gptBanner(page).first().waitFor({ state: "attached" });
    expect(
      await gptBanner(page)
        .first()
        .evaluate((el) => [el.clientWidth, el.clientHeight]),
    ).toEqual([728, 90]);
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __gptCalls?: unknown[][] }).__gptCalls ?? []))
      .toEqual(
        expect.arrayContaining([
          ["enableServices"],
          ["defineSlot", "/21812345/offeratlas/header", [728, 90], expect.stringMatching(/^gpt-728x90-/)],
          ["display", expect.stringMatching(/^gpt-728x90-/), "found"],
        ]),
      );
    expect(await page.evaluate(() => (window as unknown as { __analyticsRan?: boolean }).__analyticsRan)).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { __pixelRan?: boolean }).__pixelRan)).toBe(true);

    // Another page: no question again, the tags load at once.
    tried.length = 0;
    await open(page, "/networks");
    expect(await banner(page).count()).toBe(0);
    await expect.poll(() => [...tried].sort()).toEqual([PIXEL, ANALYTICS, GPT].sort());
    expect(refused).toEqual([]);
    // The slot came with the page this time, server-rendered: GPT still finds its box by the id it is given.
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __gptCalls?: unknown[][] }).__gptCalls ?? []))
      .toEqual(expect.arrayContaining([["display", expect.stringMatching(/^gpt-728x90-/), "found"]]));
    expect(
      await page.evaluate(() =>
        (window as unknown as { __gptCalls: unknown[][] }).__gptCalls.filter(
          (c) => c[0] === "display" && c[2] !== "found",
        ),
      ),
    ).toEqual([]);
    await context.close();
  });

  it("after Reject nothing loads, on any page; the footer link changes the answer both ways", async () => {
    const { context, page, tried, refused } = await visitor();
    await open(page, "/");
    await banner(page).getByRole("button", { name: "Reject" }).click();
    expect(await banner(page).count()).toBe(0);
    expect(await consentCookie(context)).toBe("rejected");
    await open(page, "/networks");
    await open(page, "/");
    expect(await banner(page).count()).toBe(0);
    expect(await houseBanner(page).count()).toBe(1);
    expect(tried).toEqual([]);

    // Changing the answer: Accept from the footer loads the tags on this page.
    await cookieSettings(page).click();
    await banner(page).getByText("Your current choice: rejected").waitFor();
    await banner(page).getByRole("button", { name: "Accept" }).click();
    await expect.poll(() => [...tried].sort()).toEqual([PIXEL, ANALYTICS, GPT].sort());
    await gptBanner(page).first().waitFor({ state: "attached" });

    // And withdrawing it: the page starts afresh without them.
    tried.length = 0;
    await cookieSettings(page).click();
    await Promise.all([page.waitForEvent("load"), banner(page).getByRole("button", { name: "Reject" }).click()]);
    await page.waitForLoadState("networkidle");
    expect(await consentCookie(context)).toBe("rejected");
    expect(await banner(page).count()).toBe(0);
    expect(await houseBanner(page).count()).toBe(1);
    expect(await gptBanner(page).count()).toBe(0);
    expect(tried).toEqual([]);
    expect(refused).toEqual([]);
    await context.close();
  });

  it("the console loads no tags and asks nothing, even for an admin who accepted them", async () => {
    const { context, page, tried, refused } = await visitor(admin);
    await context.addCookies([{ name: "oa_consent", value: "accepted", url: server.baseUrl }]);
    await open(page, "/");
    await expect.poll(() => [...tried].sort()).toEqual([PIXEL, ANALYTICS, GPT].sort());
    // Moving into the console in the same document: it starts afresh, without the tags.
    tried.length = 0;
    await Promise.all([
      page.waitForEvent("load"),
      page.evaluate(() =>
        (
          window as unknown as { __reactRouterDataRouter: { navigate(to: string): Promise<void> } }
        ).__reactRouterDataRouter.navigate("/admin/tags"),
      ),
    ]);
    await page.getByRole("heading", { level: 1, name: "Third-party tags" }).waitFor();
    await page.waitForLoadState("networkidle");
    expect(tried).toEqual([]);
    expect(await page.evaluate(() => "googletag" in window || "fbq" in window || "gtag" in window)).toBe(false);
    expect(await banner(page).count()).toBe(0);
    expect(await cookieSettings(page).count()).toBe(0);
    await open(page, "/admin");
    expect(tried).toEqual([]);
    expect(refused).toEqual([]);
    await context.close();
  });

  it("a site that does not ask loads the tags for everyone, and still honours Reject", async () => {
    const current = (await server.app.inject({ url: "/api/admin/tags", headers: admin.headers })).json<object>();
    const saved = await server.app.inject({
      method: "PUT",
      url: "/api/admin/tags",
      headers: admin.headers,
      payload: { ...current, consentRequired: false },
    });
    expect(saved.statusCode, saved.body).toBe(200);

    const { context, page, tried } = await visitor();
    await open(page, "/");
    await expect.poll(() => [...tried].sort()).toEqual([PIXEL, ANALYTICS, GPT].sort());
    expect(await banner(page).count()).toBe(0);

    tried.length = 0;
    await cookieSettings(page).click();
    await Promise.all([page.waitForEvent("load"), banner(page).getByRole("button", { name: "Reject" }).click()]);
    await open(page, "/networks");
    await open(page, "/");
    expect(tried).toEqual([]);
    expect(await gptBanner(page).count()).toBe(0);
    expect(await houseBanner(page).count()).toBe(1);
    await context.close();
  });
});
