// Payout history in Chromium (issue #13, "What affiliates see"): a network's source
// on the fake Everflow server syncs 20 offers; one offer's payout changes at the
// platform and the next sync records it; that offer's page says when and from which
// platform it was verified, charts both payouts and lists them in its table.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { browserAvailable, launchBrowser } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/server.ts";
import { javaAvailable, vnuErrors } from "../fixtures/xml-validate.ts";
import { startFakeEverflow, type FakeEverflow } from "../fakes/everflow.ts";
import { addSource, API_KEY, offerOf, SECRETS_KEY } from "../supply/helpers.ts";

describe.skipIf(!browserAvailable)("payout history on the offer page in Chromium", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;
  let fake: FakeEverflow;

  beforeAll(async () => {
    server = await startTestServer({ seed: { networks: 2, offers: 10, trafficSources: 1 }, env: { SECRETS_KEY } });
    fake = await startFakeEverflow({ apiKey: API_KEY, count: 20 });
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await fake?.close();
    await server?.close();
  });

  it("a payout change at the platform shows as a second point and row, under a verified line", async () => {
    const { sourceId } = await addSource(server.db, server.app.services.secrets, { url: fake.url });
    expect(await server.app.services.offerSync.run(sourceId)).toMatchObject({ status: "succeeded", seen: 20, new: 20 });
    // Offer 8 is a USD CPA offer paying $18.00; its next version pays $7 more.
    const before = await offerOf(server.db, sourceId, 8);
    expect(before).toMatchObject({ payoutAmount: 18, currency: "USD", payoutType: "CPA" });
    fake.state.versions.set(8, 7);
    expect(await server.app.services.offerSync.run(sourceId)).toMatchObject({
      status: "succeeded",
      changed: 1,
      unchanged: 19,
    });
    const [verifiedAt] = await server.db.query<{ at: string }>(
      sql`SELECT to_char(verified_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS at FROM offers WHERE id = ${before.id}`,
    );

    const path = `/offer/${before.id}/${before.slug}`;
    // The server's HTML, chart and table included, is valid (Nu HTML Checker, where Java is installed).
    if (javaAvailable) {
      const report = vnuErrors({ [path]: (await server.app.inject(path)).body });
      expect(report[path].map((e) => `${e.lastLine}: ${e.message} ${e.extract ?? ""}`)).toEqual([]);
    }

    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    const answer = await page.goto(`${server.baseUrl}${path}`, { waitUntil: "networkidle" });
    expect(answer?.status()).toBe(200);

    const verified = page.getByTestId("offer-verified");
    expect(await verified.textContent()).toMatch(
      /^✓Verified (just now|1 minute ago) from the network's Everflow platform$/,
    );
    expect(await verified.locator("time").getAttribute("title")).toBe(`${verifiedAt.at} UTC`);

    const history = page.getByRole("region", { name: "Payout history" });
    const chart = history.getByRole("img");
    expect(await chart.getAttribute("aria-label")).toMatch(
      /^Payout history: \$18\.00 on \w{3} \d+, \d{4}, \$25\.00 on \w{3} \d+, \d{4}, 2 points$/,
    );
    expect(await chart.locator("circle").count()).toBe(2);
    const [first, second] = await chart
      .locator("circle")
      .evaluateAll((els) => els.map((e) => ({ x: Number(e.getAttribute("cx")), y: Number(e.getAttribute("cy")) })));
    expect(second.y).toBeLessThan(first.y); // the payout went up

    const table = history.getByRole("table");
    expect(await table.isVisible()).toBe(true);
    const rows = table.locator("tbody tr");
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).locator("td").allTextContents()).toEqual([
      expect.stringMatching(/UTC$/),
      "$18.00",
      "CPA",
      "active",
    ]);
    expect(await rows.nth(1).locator("td").allTextContents()).toEqual([
      expect.stringMatching(/UTC$/),
      "$25.00",
      "CPA",
      "active",
    ]);
    expect(await page.getByRole("definition").filter({ hasText: "$25.00" }).count()).toBe(1);

    // A seeded (not synced) offer shows neither.
    const [seeded] = await server.db.query<{ id: number; slug: string }>(
      sql`SELECT id, slug FROM offers WHERE source_id IS NULL AND status = 'active' ORDER BY id LIMIT 1`,
    );
    await page.goto(`${server.baseUrl}/offer/${seeded.id}/${seeded.slug}`, { waitUntil: "networkidle" });
    await page.getByRole("heading", { level: 1 }).waitFor();
    expect(await page.getByTestId("offer-verified").count()).toBe(0);
    expect(await page.getByRole("region", { name: "Payout history" }).count()).toBe(0);
    expect(errors).toEqual([]);
  }, 60_000);
});
