// /developers in Chromium (issue #14): the page explains keys, limits and paging and
// renders the published OpenAPI document with the self-hosted Swagger UI, under the
// site's Content-Security-Policy (no CDN, no 'unsafe-eval'), without a violation.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/server.ts";

declare global {
  interface Window {
    cspViolations: string[];
  }
}

describe.skipIf(!browserAvailable)("the developers page, in Chromium", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ seed: { networks: 2, offers: 5, trafficSources: 1 } });
    browser = await launchBrowser();
    page = await browser.newPage();
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    page.on("pageerror", (e) => errors.push(e.message));
    await page.addInitScript(() => {
      window.cspViolations = [];
      document.addEventListener("securitypolicyviolation", (e) =>
        window.cspViolations.push(
          `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`,
        ),
      );
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("renders every v1 path with Swagger UI, within the CSP", async () => {
    const answer = await page.goto(`${server.baseUrl}/developers`, { waitUntil: "networkidle" });
    expect(answer?.status()).toBe(200);
    const csp = answer!.headers()["content-security-policy"];
    expect(csp).toMatch(/script-src 'self' 'nonce-/);
    expect(csp).not.toMatch(/unsafe-eval/);

    // Swagger UI (script and stylesheet) loads when the reference comes near the screen, not with
    // the page: its stylesheet in the head held up the first paint.
    await page.setViewportSize({ width: 375, height: 600 });
    await page.reload({ waitUntil: "networkidle" });
    const swaggerLoaded = () =>
      page.evaluate(() =>
        ["swagger-ui-bundle.js", "swagger-ui.css"].map((file) =>
          performance.getEntriesByType("resource").some((r) => r.name.endsWith(file)),
        ),
      );
    expect(await swaggerLoaded()).toEqual([false, false]);
    await page.locator("#swagger-ui").scrollIntoViewIfNeeded();
    await expect.poll(() => page.locator(".swagger-ui .opblock").count(), { timeout: 15_000 }).toBe(7);
    expect(await swaggerLoaded()).toEqual([true, true]);
    // Styled by its own stylesheet: its operations are laid out, not bare lists.
    expect(
      await page
        .locator(".swagger-ui .opblock")
        .first()
        .evaluate((el) => getComputedStyle(el).borderStyle),
    ).toBe("solid");
    const paths = await page
      .locator(".swagger-ui .opblock-summary-path")
      .evaluateAll((els) => els.map((el) => el.getAttribute("data-path")));
    expect(paths.sort()).toEqual(
      [
        "/networks",
        "/networks/{id}",
        "/offers",
        "/offers/{id}",
        "/openapi.json",
        "/traffic-sources",
        "/verticals",
      ].sort(),
    );
    await expect.poll(() => page.getByRole("button", { name: /Authorize/ }).count()).toBeGreaterThan(0);
    // The page's own guidance: where keys come from, and how they are sent.
    await expect
      .poll(() => page.getByRole("link", { name: "your API keys page" }).getAttribute("href"))
      .toBe("/account/api-keys");
    expect(await page.getByText("X-Api-Key: <key>").count()).toBeGreaterThan(0);

    // Every script came from our own origin: no CDN.
    const scripts = await page
      .locator("script[src]")
      .evaluateAll((els) => els.map((el) => (el as HTMLScriptElement).src));
    expect(scripts.every((src) => src.startsWith(server.baseUrl))).toBe(true);
    // Nothing is refused, zod's eval probe included (app/root.tsx sets zod's jitless mode first).
    expect(await page.evaluate(() => window.cspViolations)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
