// The queue of platform categories in Chromium (issue #13): after a sync of an
// Everflow source, an admin opens /admin/categories from the console menu, sees
// the platform's category names waiting under Unmapped (the default tab), maps
// one to a vertical with its row's select, and finds it gone from Unmapped and
// listed under Mapped with that vertical; the source is due again. The dashboard
// counts the waiting categories.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { browserAvailable, launchBrowser } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/server.ts";
import { sessionCookie, signInWithRoles } from "../helpers/staff.ts";
import { startFakeEverflow, type FakeEverflow } from "../fakes/everflow.ts";
import { addSource, API_KEY, SECRETS_KEY } from "../supply/helpers.ts";

describe.skipIf(!browserAvailable)("platform categories in Chromium", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let everflow: FakeEverflow;
  let browser: Browser;
  let admin: Awaited<ReturnType<typeof signInWithRoles>>;
  let sourceId: number;

  beforeAll(async () => {
    server = await startTestServer({ seed: { networks: 2, offers: 5, trafficSources: 1 }, env: { SECRETS_KEY } });
    everflow = await startFakeEverflow({ apiKey: API_KEY, count: 8 });
    ({ sourceId } = await addSource(server.db, server.app.services.secrets, { url: everflow.url }));
    expect(await server.app.services.offerSync.run(sourceId)).toMatchObject({ status: "succeeded" });
    browser = await launchBrowser();
    admin = await signInWithRoles(server, ["admin"], "Ada Admin");
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await everflow?.close();
    await server?.close();
  });

  it("an admin maps a waiting category: it leaves Unmapped and shows under Mapped", async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    await context.addCookies([sessionCookie(admin, server.baseUrl)]);
    const page = await context.newPage();
    expect((await page.goto(`${server.baseUrl}/admin`, { waitUntil: "networkidle" }))?.status()).toBe(200);
    // The dashboard counts what waits in the queue.
    expect(await page.getByTestId("pending-unmappedCategories").textContent()).toBe("4Unmapped platform categories");
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Platform categories" }).click();
    await page.getByRole("heading", { level: 1, name: "Platform categories" }).waitFor();

    const table = page.getByTestId("platform-categories-table");
    const names = () => table.getByTestId("platform-category-name").allTextContents();
    const mapping = page.getByRole("navigation", { name: "Mapping" });
    expect(await mapping.getByRole("link", { name: "Unmapped", exact: true }).getAttribute("aria-current")).toBe(
      "page",
    );
    expect((await names()).sort()).toEqual(["Finance", "Gaming", "Health & Beauty", "Sweepstakes"]);
    await page.getByText("A mapping applies at each source's next sync").waitFor();

    await server.db.query(sql`UPDATE offer_sources SET next_run_at = now() + interval '1 day' WHERE id = ${sourceId}`);
    const row = table.locator("tr", {
      has: page.getByTestId("platform-category-name").getByText("Finance", { exact: true }),
    });
    await row.getByLabel("Vertical for Finance").selectOption({ label: "Finance" });
    await row.getByRole("button", { name: "Map" }).click();
    const notice = page.getByTestId("action-notice");
    await notice.waitFor();
    expect(await notice.textContent()).toContain("Finance (everflow) now maps to Finance.");
    expect(await notice.textContent()).toContain("will sync soon");
    // It has left the queue.
    await expect.poll(names).toEqual(expect.not.arrayContaining(["Finance"]));
    expect(await names()).toHaveLength(3);

    await mapping.getByRole("link", { name: "Mapped", exact: true }).click();
    await page.waitForURL(/view=mapped/);
    await expect.poll(names).toEqual(["Finance"]);
    expect(await table.getByTestId("platform-category-vertical").textContent()).toBe("Finance");
    expect(await table.getByRole("button", { name: "Unmap" }).count()).toBe(1);

    const [mapped] = await server.db.query<{ vertical: string; due: boolean }>(sql`
      SELECT c.name AS vertical, (SELECT next_run_at <= now() FROM offer_sources WHERE id = ${sourceId}) AS due
      FROM platform_categories pc JOIN categories c ON c.id = pc.category_id
      WHERE pc.platform = 'everflow' AND pc.name = 'Finance'`);
    expect(mapped).toEqual({ vertical: "Finance", due: true });
    await context.close();
  });
});
