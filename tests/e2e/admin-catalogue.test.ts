// The console's catalogue in Chromium: an admin finds a network in
// /admin/networks, renames it and marks it featured, and sees both on /networks;
// a field refusal shows beside its field; then the admin retires it, it leaves
// /networks, and its old page answers 410 with the "no longer listed" page.
// Also: a new network pinned first, a stale save refused, a traffic source's
// life (create, retire, restore) and a vertical renamed and merged.
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { browserAvailable, launchBrowser } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/server.ts";
import { sessionCookie, signInWithRoles } from "../helpers/staff.ts";

describe.skipIf(!browserAvailable)("the console's catalogue in Chromium", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    server = await startTestServer({ seed: { networks: 8, offers: 40, trafficSources: 2 } });
    browser = await launchBrowser();
    const admin = await signInWithRoles(server, ["admin"], "Ada Admin");
    context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    await context.addCookies([sessionCookie(admin, server.baseUrl)]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("an admin renames a network and features it, sees it on /networks, then retires it and its page answers 410", async () => {
    const [network] = await server.db.query<{ id: number; name: string; slug: string }>(sql`
      SELECT id, name, slug FROM networks n
      WHERE status = 'active' AND NOT featured
        AND EXISTS (SELECT 1 FROM network_properties p WHERE p.network_id = n.id AND p.identifier = 'offeratlas')
      ORDER BY id LIMIT 1`);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));

    const list = await page.goto(`${server.baseUrl}/admin/networks`, { waitUntil: "networkidle" });
    expect(list?.status()).toBe(200);
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Networks" }).waitFor();
    await page.getByLabel("Search networks").fill(network.name);
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/search=/);
    await page.locator(`tr[data-row-id="${network.id}"]`).getByRole("link", { name: network.name }).click();
    await page.getByRole("heading", { level: 1, name: network.name }).waitFor();

    // A refusal is shown beside its field and keeps what was typed.
    const form = page.getByTestId("network-form");
    await form.getByLabel("Website").fill("not a web address");
    await form.getByRole("button", { name: "Save network" }).click();
    await form.locator('[data-field-error="website"]').waitFor();
    expect(await form.locator('[data-field-error="website"]').textContent()).toBe(
      "not a web address is not a valid url",
    );
    expect(await form.getByLabel("Website").inputValue()).toBe("not a web address");

    const renamed = `${network.name} Prime`;
    await form.getByLabel("Website").fill("https://prime.example.com");
    await form.getByLabel("Name").fill(renamed);
    await form.getByLabel("Featured", { exact: true }).check();
    await form.getByRole("button", { name: "Save network" }).click();
    await page.getByTestId("save-result").waitFor();
    expect(await page.getByTestId("save-result").textContent()).toBe("Saved.");
    await page.getByRole("heading", { level: 1, name: renamed }).waitFor();
    const [saved] = await server.db.query<{ name: string; featured: boolean }>(
      sql`SELECT name, featured FROM networks WHERE id = ${network.id}`,
    );
    expect(saved).toEqual({ name: renamed, featured: true });

    // The public directory shows the new name with the featured mark.
    const publicPage = await context.newPage();
    await publicPage.goto(`${server.baseUrl}/networks?search=${encodeURIComponent(renamed)}`, {
      waitUntil: "networkidle",
    });
    const row = publicPage.locator(`tr[data-network-id="${network.id}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain(renamed);
    expect(await row.textContent()).toContain("Featured");

    // Retire it: it leaves /networks and its page says it is no longer listed (410).
    await page.getByRole("button", { name: "Retire network" }).click();
    await page.getByTestId("status-result").waitFor();
    expect(await page.getByTestId("status-result").textContent()).toContain(`${renamed} is retired`);
    await page.waitForFunction(() =>
      document.querySelector("[data-testid=network-status]")?.textContent?.startsWith("Retired since "),
    );

    await publicPage.goto(`${server.baseUrl}/networks?search=${encodeURIComponent(renamed)}`, {
      waitUntil: "networkidle",
    });
    expect(await publicPage.locator(`tr[data-network-id="${network.id}"]`).count()).toBe(0);

    const gone = await publicPage.goto(`${server.baseUrl}/network/${network.id}/${network.slug}`, {
      waitUntil: "networkidle",
    });
    expect(gone?.status()).toBe(410);
    const notice = publicPage.getByTestId("no-longer-listed");
    await notice.waitFor();
    expect(await notice.getByRole("heading", { level: 1 }).textContent()).toBe(`${renamed} is no longer listed`);
    await notice.getByRole("link", { name: "Browse listed networks" }).click();
    await publicPage.waitForURL(`${server.baseUrl}/networks`);
    expect(problems).toEqual([]);
  }, 60_000);

  it("an admin creates a network listed first on the site, and a stale save answers with a conflict", async () => {
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/admin/networks`, { waitUntil: "networkidle" });
    await page.getByRole("link", { name: "New network" }).click();
    await page.getByRole("heading", { level: 1, name: "New network" }).waitFor();
    const form = page.getByTestId("network-form");
    await form.getByLabel("Name").fill("Orbit Offers");
    await form.getByLabel("Payment methods").fill("PayPal, Wire");
    await form.getByLabel("Joining link").fill("https://orbit.example.com/join");
    await form.getByLabel("Order").fill("1");
    await form.getByRole("button", { name: "Create network" }).click();
    await page.getByRole("heading", { level: 1, name: "Orbit Offers" }).waitFor();
    const [created] = await server.db.query<{ id: number; payment_methods: string[]; display_order: number }>(sql`
      SELECT n.id, n.payment_methods, p.display_order FROM networks n
      JOIN network_properties p ON p.network_id = n.id AND p.identifier = 'offeratlas'
      WHERE n.slug = 'orbit-offers'`);
    expect(created).toMatchObject({ payment_methods: ["PayPal", "Wire"], display_order: 1 });

    // Pinned to place 1: first row of the public directory.
    const publicPage = await context.newPage();
    await publicPage.goto(`${server.baseUrl}/networks`, { waitUntil: "networkidle" });
    expect(await publicPage.locator("tr[data-network-id]").first().getAttribute("data-network-id")).toBe(
      String(created.id),
    );

    // Two editors open the same version; the second save is refused, nothing is overwritten.
    const other = await context.newPage();
    await other.goto(`${server.baseUrl}/admin/networks/${created.id}`, { waitUntil: "networkidle" });
    await form.getByLabel("Payment terms").fill("Net 7");
    await form.getByRole("button", { name: "Save network" }).click();
    await page.getByTestId("save-result").waitFor();
    const otherForm = other.getByTestId("network-form");
    await otherForm.getByLabel("Payment terms").fill("Monthly");
    await otherForm.getByRole("button", { name: "Save network" }).click();
    await otherForm.getByRole("alert").waitFor();
    expect(await otherForm.getByRole("alert").textContent()).toBe(
      "Someone else changed this network; reload it and try again",
    );
    const [{ payment_terms }] = await server.db.query<{ payment_terms: string }>(
      sql`SELECT payment_terms FROM networks WHERE id = ${created.id}`,
    );
    expect(payment_terms).toBe("Net 7");
  }, 60_000);

  it("an admin creates, retires and restores a traffic source", async () => {
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/admin/traffic-sources`, { waitUntil: "networkidle" });
    await page.getByRole("link", { name: "New traffic source" }).click();
    const form = page.getByTestId("traffic-source-form");
    await form.getByLabel("Name").fill("Beacon Push");
    await form.getByLabel("Geos").fill("US, ZZ");
    await form.getByRole("button", { name: "Create traffic source" }).click();
    await form.locator('[data-field-error="geos"]').waitFor();
    expect(await form.locator('[data-field-error="geos"]').textContent()).toBe("ZZ is not a country code");
    await form.getByLabel("Geos").fill("US, DE");
    await form.getByLabel("Featured (listed first)").check();
    await form.getByRole("button", { name: "Create traffic source" }).click();
    await page.getByRole("heading", { level: 1, name: "Beacon Push" }).waitFor();
    const id = Number(/\/admin\/traffic-sources\/(\d+)/.exec(page.url())![1]);

    const publicPage = await context.newPage();
    await publicPage.goto(`${server.baseUrl}/traffic-sources?search=beacon`, { waitUntil: "networkidle" });
    await publicPage.locator(`tr[data-traffic-source-id="${id}"][data-featured]`).waitFor();

    await page.getByRole("button", { name: "Retire traffic source" }).click();
    await page.getByTestId("status-result").waitFor();
    const gone = await publicPage.goto(`${server.baseUrl}/traffic-sources/details/${id}`, { waitUntil: "networkidle" });
    expect(gone?.status()).toBe(410);
    expect(await publicPage.getByTestId("no-longer-listed").getByRole("heading").textContent()).toBe(
      "Beacon Push is no longer listed",
    );

    await page.getByRole("button", { name: "Restore traffic source" }).click();
    await page.getByTestId("status-result").filter({ hasText: "listed again" }).waitFor();
    const back = await publicPage.goto(`${server.baseUrl}/traffic-sources/details/${id}`, { waitUntil: "networkidle" });
    expect(back?.status()).toBe(200);
  }, 60_000);

  it("an admin renames a vertical and merges another into it", async () => {
    const [a, b] = await server.db.query<{ id: number; name: string }>(sql`
      SELECT c.id, c.name FROM categories c
      ORDER BY (SELECT count(*) FROM offers o WHERE c.id = ANY(o.category_ids)) DESC, c.id LIMIT 2`);
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/admin/verticals?sort=name&dir=asc`, { waitUntil: "networkidle" });
    await page.locator(`tr[data-row-id="${a.id}"]`).getByRole("link", { name: a.name }).click();
    await page.getByRole("heading", { level: 1, name: a.name }).waitFor();
    const rename = page.locator('form[data-intent="rename"]');
    await rename.getByLabel("Name").fill("Sweepstakes Plus");
    await rename.getByRole("button", { name: "Save" }).click();
    await page.getByRole("heading", { level: 1, name: "Sweepstakes Plus" }).waitFor();

    // Merge b into the renamed vertical from b's page.
    await page.goto(`${server.baseUrl}/admin/verticals/${b.id}`, { waitUntil: "networkidle" });
    const [{ expected }] = await server.db.query<{ expected: number }>(sql`
      SELECT count(*)::int AS expected FROM offers
      WHERE status = 'active' AND (${a.id} = ANY(category_ids) OR ${b.id} = ANY(category_ids))`);
    const merge = page.locator('form[data-intent="merge"]');
    await merge.getByLabel("Merge into").selectOption(String(a.id));
    await merge.getByRole("button", { name: "Merge" }).click();
    await page.getByRole("heading", { level: 1, name: "Sweepstakes Plus" }).waitFor();
    expect(await page.getByTestId("vertical-offer-count").textContent()).toMatch(
      new RegExp(`^${expected.toLocaleString("en-US")} active offers · \\d+ offers moved here`),
    );
    expect(await server.db.query(sql`SELECT 1 FROM categories WHERE id = ${b.id}`)).toEqual([]);
    // An old address of the merged vertical's console page is a 404, not a 500.
    const old = await page.goto(`${server.baseUrl}/admin/verticals/${b.id}`);
    expect(old?.status()).toBe(404);
  }, 60_000);
});
