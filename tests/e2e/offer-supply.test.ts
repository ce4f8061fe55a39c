// What affiliates see of offer supply in Chromium (issue #13): two networks' sources
// on fake Everflow servers list the same products (the second names one its own
// way). A payout change at the first platform shows as a second point of the
// offer's payout history and as a "payout changed" mark in search, and the offer
// leads the "Payout increased" view; an offer the platform stops listing is retired
// after two runs: out of search, and its page says it is no longer available and
// links to the same offer at the other network.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/server.ts";
import { everflowOffer, startFakeEverflow, type FakeEverflow } from "../fakes/everflow.ts";
import { addSource, API_KEY, offerOf, SECRETS_KEY } from "../supply/helpers.ts";

describe.skipIf(!browserAvailable)("offer supply as affiliates see it, in Chromium", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;
  let page: Page;
  let mine: FakeEverflow;
  let theirs: FakeEverflow;
  const errors: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ seed: { networks: 2, offers: 10, trafficSources: 1 }, env: { SECRETS_KEY } });
    mine = await startFakeEverflow({ apiKey: API_KEY, count: 5 });
    theirs = await startFakeEverflow({ apiKey: API_KEY, count: 5 });
    browser = await launchBrowser();
    page = await browser.newPage();
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await mine?.close();
    await theirs?.close();
    await server?.close();
  });

  const rowsOf = () => page.locator('[data-testid="offers-table"] tbody tr');
  const rowIds = async () =>
    (await rowsOf().evaluateAll((rows) => rows.map((r) => r.getAttribute("data-offer-id")))).map(Number);

  it("a payout change is a history point, a mark in search and a row of Payout increased; a dropped offer retires after 2 runs", async () => {
    const sync = (sourceId: number) => server.app.services.offerSync.run(sourceId);
    const { sourceId, networkId } = await addSource(server.db, server.app.services.secrets, {
      url: mine.url,
      retireAfterRuns: 2,
    });
    const { sourceId: otherSource } = await addSource(server.db, server.app.services.secrets, { url: theirs.url });
    // The other network calls offer 3 its own way; same landing page.
    theirs.state.overrides.set(3, { ...everflowOffer(3), name: "FAKE OFFER 3 - US/CA (CPA)" });
    expect(await sync(sourceId)).toMatchObject({ status: "succeeded", new: 5 });
    expect(await sync(otherSource)).toMatchObject({ status: "succeeded", new: 5 });

    // Offer 2 pays $12.00 (USD CPC); its platform raises it by $5.
    const changed = await offerOf(server.db, sourceId, 2);
    expect(changed).toMatchObject({ payoutAmount: 12, currency: "USD" });
    mine.state.versions.set(2, 5);
    expect(await sync(sourceId)).toMatchObject({ status: "succeeded", changed: 1, unchanged: 4 });

    // The offer page: two points, $12.00 then $17.00.
    const offerPage = await page.goto(`${server.baseUrl}/offer/${changed.id}/${changed.slug}`, {
      waitUntil: "networkidle",
    });
    expect(offerPage?.status()).toBe(200);
    const chart = page.getByRole("region", { name: "Payout history" }).getByRole("img");
    expect(await chart.getAttribute("aria-label")).toMatch(
      /^Payout history: \$12\.00 on .+, \$17\.00 on .+, 2 points$/,
    );
    expect(await chart.locator("circle").count()).toBe(2);

    // Search: the row carries the mark, seen as "▲ $5.00" and read as words.
    await page.goto(`${server.baseUrl}/?networks=${networkId}`, { waitUntil: "networkidle" });
    const row = rowsOf().and(page.locator(`[data-offer-id="${changed.id}"]`));
    const mark = row.getByTestId("payout-change");
    expect(await mark.getAttribute("data-direction")).toBe("up");
    expect(await mark.locator('[aria-hidden="true"]').innerText()).toBe("▲ $5.00");
    expect(await mark.locator(".sr-only").textContent()).toMatch(/^Payout up \$5\.00 since \d{1,2} [A-Z][a-z]{2}$/);
    expect(await rowsOf().getByTestId("payout-change").count()).toBe(1);
    // Every offer of this network was first listed today.
    expect(await rowsOf().getByTestId("new-offer").count()).toBe(5);

    // The "Payout increased" tab lists that offer alone.
    await page.getByRole("link", { name: "Payout increased" }).click();
    await page.waitForURL(/selectedTab=payoutIncreased/);
    await page.getByRole("link", { name: "Payout increased" }).and(page.locator('[aria-current="page"]')).waitFor();
    expect(await rowIds()).toEqual([changed.id]);
    await page.getByRole("link", { name: "Updated in the last 7 days" }).click();
    await page.waitForURL(/selectedTab=updated/);
    await page
      .getByRole("link", { name: "Updated in the last 7 days" })
      .and(page.locator('[aria-current="page"]'))
      .waitFor();
    const listed = await Promise.all([1, 2, 3, 4, 5].map((n) => offerOf(server.db, sourceId, n)));
    // All five were added today; the changed one first.
    expect((await rowIds())[0]).toBe(changed.id);
    expect((await rowIds()).sort()).toEqual(listed.map((o) => o.id).sort());

    // Offer 3 leaves the platform: one missed run keeps it, the second retires it.
    const dropped = await offerOf(server.db, sourceId, 3);
    const elsewhere = await offerOf(server.db, otherSource, 3);
    mine.state.removed.add(3);
    expect(await sync(sourceId)).toMatchObject({ status: "succeeded", retired: 0 });
    await page.goto(`${server.baseUrl}/?networks=${networkId}`, { waitUntil: "networkidle" });
    expect(await rowIds()).toContain(dropped.id);
    expect(await sync(sourceId)).toMatchObject({ status: "succeeded", retired: 1 });
    await page.goto(`${server.baseUrl}/?networks=${networkId}`, { waitUntil: "networkidle" });
    expect(await rowIds()).not.toContain(dropped.id);
    expect(await rowIds()).toHaveLength(4);

    // Its page: no longer available, and the same offer at the other network, one click away.
    const gone = await page.goto(`${server.baseUrl}/offer/${dropped.id}/${dropped.slug}`, {
      waitUntil: "networkidle",
    });
    expect(gone?.status()).toBe(410);
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("Fake Offer 3 is no longer listed");
    const same = page.getByRole("region", { name: "Same offer at other networks" });
    expect(await same.innerText()).toContain("Fake Offer 3 is no longer available at Fake Network");
    const sameRows = same.locator('[data-testid="same-offer-table"] tbody tr');
    expect(await sameRows.count()).toBe(1);
    await sameRows.getByRole("link", { name: "View" }).click();
    await page.waitForURL(`**/offer/${elsewhere.id}/${elsewhere.slug}`);
    await page.getByRole("heading", { level: 1, name: "FAKE OFFER 3 - US/CA (CPA)" }).waitFor();
    expect(errors.filter((e) => !/status of 410/.test(e))).toEqual([]);
  }, 90_000);
});
