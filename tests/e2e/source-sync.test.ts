// "Sync now" in Chromium (issue #13): an admin opens a source from the list of
// offer sources, sees that it has not synced yet, presses "Sync now", and the
// run appears in the source's history with its counts (the queue runs in the
// test server: OFFER_SYNC_SCHEDULER on). The API key appears on no page.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { browserAvailable, launchBrowser } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/server.ts";
import { sessionCookie, signInWithRoles } from "../helpers/staff.ts";
import { startFakeEverflow, type FakeEverflow } from "../fakes/everflow.ts";
import { addSource, API_KEY, SECRETS_KEY } from "../supply/helpers.ts";

describe.skipIf(!browserAvailable)("Sync now in Chromium", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;
  let fake: FakeEverflow;
  let admin: Awaited<ReturnType<typeof signInWithRoles>>;

  beforeAll(async () => {
    server = await startTestServer({
      seed: { networks: 2, offers: 10, trafficSources: 1 },
      env: { SECRETS_KEY, OFFER_SYNC_SCHEDULER: "true" },
    });
    browser = await launchBrowser();
    fake = await startFakeEverflow({ apiKey: API_KEY, count: 42 });
    admin = await signInWithRoles(server, ["admin"], "Ada Admin");
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await fake?.close();
    await server?.close();
  });

  const adminPage = async (where: string): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    await context.addCookies([sessionCookie(admin, server.baseUrl)]);
    const page = await context.newPage();
    const answer = await page.goto(`${server.baseUrl}${where}`, { waitUntil: "networkidle" });
    expect(answer?.status()).toBe(200);
    return page;
  };

  it("an admin presses Sync now and the run shows in the history with its counts", async () => {
    const { sourceId, networkId } = await addSource(server.db, server.app.services.secrets, { url: fake.url });
    // Not due for a day: the run comes from the button alone.
    await server.db.query(sql`UPDATE offer_sources SET next_run_at = now() + interval '1 day' WHERE id = ${sourceId}`);
    const [network] = await server.db.query<{ name: string }>(sql`SELECT name FROM networks WHERE id = ${networkId}`);

    const page = await adminPage("/admin/sources");
    await page.getByRole("link", { name: network.name }).click();
    await page.getByRole("heading", { level: 1, name: `${network.name}: everflow source #${sourceId}` }).waitFor();
    expect(await page.getByTestId("source-state").textContent()).toContain("Not synced yet");
    expect(await page.getByTestId("source-next-run").textContent()).toMatch(/UTC$/);
    expect(await page.getByTestId("sync-runs").count()).toBe(0);

    await page.getByRole("button", { name: "Sync now" }).click();
    await page.locator('[data-testid="sync-now-result"][role="status"]').waitFor();
    expect(await page.getByTestId("sync-now-result").textContent()).toBe("Sync queued: it starts within seconds.");

    // The page follows the run it asked for until it has finished.
    const status = page.getByTestId("sync-run-status");
    await expect.poll(() => status.allTextContents(), { timeout: 20_000 }).toEqual(["Succeeded"]);
    const counts = Object.fromEntries(
      await page
        .locator('[data-testid="sync-run"] td[data-count]')
        .evaluateAll((cells) => cells.map((c) => [c.getAttribute("data-count"), c.textContent])),
    );
    expect(counts).toEqual({ seen: "42", new: "42", changed: "0", unchanged: "0", retired: "0", skipped: "0" });
    const [run] = await server.db.query<{ seen: number; status: string }>(
      sql`SELECT seen, status FROM offer_sync_runs WHERE source_id = ${sourceId}`,
    );
    expect(run).toEqual({ seen: 42, status: "succeeded" });
    expect(await page.getByTestId("source-state").textContent()).toContain("Syncing normally");
    expect(await page.content()).not.toContain(API_KEY);
  });
});
