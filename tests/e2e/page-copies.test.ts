// Pages served from the page cache in Chromium (docs/decisions/0042): a copy is the same bytes for
// everyone, its inline scripts allowed by their hashes instead of a nonce, so the browser must
// run every script the page needs, and no other, within that policy: the page starts, its filter
// lists load, Swagger UI draws the API, and no CSP violation is reported.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser, pageStarted } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/server.ts";

describe.skipIf(!browserAvailable)("pages from their shared copy, in Chromium", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    server = await startTestServer({
      seed: { networks: 12, offers: 120, trafficSources: 2 },
      env: { PAGE_CACHE_SECONDS: "60" },
    });
    browser = await launchBrowser();
    context = await browser.newContext({ baseURL: server.baseUrl });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Opens `path` from its copy (one visit renders it first) and tells what the browser's CSP blocked. */
  async function fromCopy(path: string): Promise<{ page: Page; violations: string[] }> {
    await server.app.inject({ url: path, headers: { accept: "text/html" } });
    const page = await context.newPage();
    await page.addInitScript(() => {
      (window as unknown as { violations: string[] }).violations = [];
      document.addEventListener("securitypolicyviolation", (e) =>
        (window as unknown as { violations: string[] }).violations.push(`${e.violatedDirective} ${e.sample}`),
      );
    });
    const res = await page.goto(path, { waitUntil: "networkidle" });
    expect(res!.headers()["x-page-cache"]).toBe("hit");
    const csp = res!.headers()["content-security-policy"];
    expect(csp).not.toContain("'nonce-");
    expect(csp).toMatch(/script-src 'self'( 'sha256-[^']+')+;/);
    await pageStarted(page);
    const violations = await page.evaluate(() => (window as unknown as { violations: string[] }).violations);
    return { page, violations };
  }

  it("the home page starts, and its filter lists load", async () => {
    const { page, violations } = await fromCopy("/");
    await page.locator('details[data-filter="countries"] > summary').click();
    await page.locator('details[data-filter="countries"] input[type="checkbox"]').nth(1).waitFor();
    expect(violations).toEqual([]);
    await page.close();
  });

  it("a search, and the networks directory, start without a violation", async () => {
    for (const path of ["/?search=casino&selectedTab=topOffers&page=1", "/networks"]) {
      const { page, violations } = await fromCopy(path);
      expect(violations).toEqual([]);
      await page.close();
    }
  });

  it("the developers page draws the API with Swagger UI", async () => {
    const { page, violations } = await fromCopy("/developers");
    await page.locator("#swagger-ui").scrollIntoViewIfNeeded();
    await expect.poll(() => page.locator(".swagger-ui .opblock").count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(violations).toEqual([]);
    await page.close();
  });

  it("a script that got into a copy without the page's nonce stays blocked", async () => {
    const { page } = await fromCopy("/faq");
    // What a copy's policy says of a script it did not render: the browser refuses it.
    const ran = await page.evaluate(() => {
      const script = document.createElement("script");
      script.textContent = "window.injected = true";
      document.body.append(script);
      return (window as unknown as { injected?: boolean }).injected === true;
    });
    expect(ran).toBe(false);
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([
      expect.stringMatching(/^script-src/),
    ]);
    await page.close();
  });
});
