// Network and traffic source journeys in a real browser: search with the URL
// kept in step, paging, a network page with reviews, logging in to post and then
// edit a review, Join, the traffic sources list, and old-site addresses.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { sql } from "#db/client.ts";
import { browserAvailable, launchBrowser } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/server.ts";

type Server = Awaited<ReturnType<typeof startTestServer>>;
const PASSWORD = "Plenty-of-Entropy-2009!";

describe.skipIf(!browserAvailable)("networks and traffic sources in the browser", () => {
  let server: Server;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer({ seed: { networks: 30, offers: 300, trafficSources: 30 } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function fresh(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ baseURL: server.baseUrl });
    // Joining links point at made-up domains: answer them locally.
    await context.route(/^https:\/\/(affiliates|www)\./, (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: "<h1>Network signup</h1>" }),
    );
    return { context, page: await context.newPage() };
  }

  async function account(name: string, remoteAddress: string) {
    const email = `e2e${crypto.randomBytes(4).toString("hex")}@example.com`;
    const reg = await server.app.inject({
      method: "POST",
      url: "/api/auth/register/",
      remoteAddress,
      payload: { name, email, password: PASSWORD, confirmPassword: PASSWORD },
    });
    expect(reg.statusCode).toBe(201);
    return email;
  }

  const rowIds = async (page: Page) =>
    page.locator("[data-network-id]").evaluateAll((rows) => rows.map((r) => Number(r.getAttribute("data-network-id"))));

  it("searches networks with the URL following, clears the search and pages without repeats", async () => {
    const { context, page } = await fresh();
    const problems: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(e.message));
    await page.goto("/networks", { waitUntil: "networkidle" });
    await page.getByRole("heading", { name: "Enter a search term below to find networks" }).waitFor();
    const firstPage = await rowIds(page);
    expect(firstPage).toHaveLength(20);

    await page.getByRole("link", { name: "Page 2" }).click();
    await page.waitForURL(/[?&]page=2/);
    await page.waitForFunction(() => document.querySelectorAll("[data-network-id]").length === 10);
    const secondPage = await rowIds(page);
    expect(secondPage).toHaveLength(10);
    expect(secondPage.filter((id) => firstPage.includes(id))).toEqual([]);

    const name = (await page.locator("[data-network-id] td:nth-child(2) a").first().textContent())!.trim();
    const term = name.split(" ")[0].toLowerCase();
    await page.getByRole("searchbox").fill(term);
    await page.waitForURL((url) => url.searchParams.get("search") === term && url.searchParams.get("page") === "1");
    await page.waitForFunction(
      (t) =>
        [...document.querySelectorAll("[data-network-id] td:nth-child(2) a")].every((a) =>
          a.textContent!.toLowerCase().includes(t),
        ),
      term,
    );
    const names = await page.locator("[data-network-id] td:nth-child(2) a").allTextContents();
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((n) => n.toLowerCase().includes(term))).toBe(true);

    // The search survives a reload: it lives in the URL.
    await page.reload({ waitUntil: "networkidle" });
    expect(await page.getByRole("searchbox").inputValue()).toBe(term);

    await page.getByRole("link", { name: "Clear Searches" }).click();
    await page.waitForURL((url) => url.searchParams.get("search") === "" && url.searchParams.get("page") === "1");
    await page.waitForFunction(() => document.querySelectorAll("[data-network-id]").length === 20);
    // The box follows the URL in an effect, one render after the rows.
    await expect.poll(() => page.getByRole("searchbox").inputValue()).toBe("");
    // The server's shuffle is the one the browser hydrates: no mismatch, no errors.
    expect(problems).toEqual([]);
    await context.close();
  });

  it("reads reviews, logs in, posts a review that moves the average, and a second one edits it", async () => {
    const [net] = await server.db.query<{ id: number; slug: string; name: string }>(
      sql`SELECT id, slug, name FROM networks WHERE offer_count > 0 ORDER BY id LIMIT 1`,
    );
    // Someone reviewed it before.
    const earlier = await account("Eli Early", "10.3.0.1");
    const login = await server.app.inject({
      method: "POST",
      url: "/api/auth/login",
      remoteAddress: "10.3.0.1",
      payload: { email: earlier, password: PASSWORD },
    });
    await server.app.inject({
      method: "POST",
      url: `/api/networks/${net.id}/reviews`,
      headers: { authorization: `Bearer ${login.json().token}` },
      payload: { site: "offeratlas", rating: 2, comment: "Payments were two weeks late, twice." },
    });

    const email = await account("Rita Reviewer", "10.3.0.2");
    const { context, page } = await fresh();
    await page.goto("/networks", { waitUntil: "networkidle" });
    await page.getByRole("searchbox").fill(net.name.toLowerCase());
    await page.waitForURL((url) => url.searchParams.get("search") === net.name.toLowerCase());
    await page.locator(`[data-network-id="${net.id}"] td:nth-child(2) a`).click();
    await page.waitForURL(`${server.baseUrl}/network/${net.id}/${net.slug}`);
    await page.getByRole("heading", { name: net.name, level: 1 }).waitFor();
    await page.getByText("Payments were two weeks late, twice.").waitFor();
    expect(await page.getByTestId("review-count").textContent()).toBe("1 review");
    expect(await page.getByTestId("avg-rating").textContent()).toBe("2.00");
    expect(await page.getByTestId("offers-table").locator("tbody tr").count()).toBeGreaterThan(0);

    await page.getByTestId("review-login-prompt").getByRole("link", { name: "Log in" }).click();
    await page.waitForURL(/\/login\?redirectTo=/);
    const form = page.locator("main form");
    await form.getByLabel("Email").fill(email);
    await form.getByLabel("Password").fill(PASSWORD);
    await form.getByRole("button", { name: "Log In" }).click();
    await page.waitForURL((url) => url.pathname === `/network/${net.id}/${net.slug}`);

    const review = page.getByRole("form", { name: "Write a review" });
    // Sent empty, or too short, the form shows the docs/product.md §5 messages beside its fields
    // (the browser's own "Please fill out this field." would stop it before the server is asked).
    const reviewError = (name: string) => review.locator(`[data-field-error="${name}"]`);
    await review.getByRole("button", { name: "Submit review" }).click();
    await reviewError("comment").waitFor();
    expect(await reviewError("rating").textContent()).toBe("Rating cannot be blank");
    expect(await reviewError("comment").textContent()).toBe("Comment cannot be blank");
    expect(await review.getByLabel("Your review").getAttribute("aria-invalid")).toBe("true");
    await review.getByLabel("5 stars").check({ force: true });
    await review.getByLabel("Your review").fill("Too short");
    await review.getByRole("button", { name: "Submit review" }).click();
    await page.waitForFunction(() => !document.querySelector('[data-field-error="rating"]'));
    expect(await reviewError("comment").textContent()).toBe("Comment must be at least 20 characters long");
    expect(await review.getByLabel("Your review").inputValue()).toBe("Too short");

    await review.getByLabel("5 stars").check({ force: true });
    await review.getByLabel("Your review").fill("Weekly payments and a helpful manager.");
    await review.getByRole("button", { name: "Submit review" }).click();
    await page.getByText("Thank you! Your review has been published.").waitFor();
    await page.waitForFunction(() => document.querySelector("[data-testid=review-count]")?.textContent === "2 reviews");
    expect(await page.getByTestId("avg-rating").textContent()).toBe("3.50");
    expect(await page.getByTestId("distribution-5").textContent()).toBe("1");

    // Writing again edits the first review: same count, new average.
    const edit = page.getByRole("form", { name: "Edit your review" });
    expect(await edit.getByLabel("Your review").inputValue()).toBe("Weekly payments and a helpful manager.");
    await edit.getByLabel("4 stars").check({ force: true });
    await edit.getByLabel("Your review").fill("Weekly payments, but support got slower lately.");
    await edit.getByRole("button", { name: "Update review" }).click();
    await page.getByText("Your review has been updated.").waitFor();
    await page.waitForFunction(() => document.querySelector("[data-testid=avg-rating]")?.textContent === "3.00");
    expect(await page.getByTestId("review-count").textContent()).toBe("2 reviews");
    expect(await page.getByText("Weekly payments and a helpful manager.").count()).toBe(0);
    const [{ n }] = await server.db.query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM reviews WHERE network_id = ${net.id}`,
    );
    expect(n).toBe(2);
    await context.close();
  });

  it("Join records a click and opens the joining link in a new tab", async () => {
    const [net] = await server.db.query<{ id: number; slug: string; joining_link: string }>(sql`
      SELECT n.id, n.slug, p.joining_link FROM networks n JOIN network_properties p ON p.network_id = n.id AND p.identifier = 'offeratlas'
      ORDER BY n.id DESC LIMIT 1`);
    const { context, page } = await fresh();
    await page.goto(`/network/${net.id}/${net.slug}`, { waitUntil: "networkidle" });
    expect(await page.locator("article header").getByTestId("join").getAttribute("rel")).toBe("noopener sponsored");
    expect(await page.locator("article header").getByTestId("join").getAttribute("target")).toBe("_blank");
    const [popup] = await Promise.all([
      context.waitForEvent("page"),
      page.locator("article header").getByTestId("join").click(),
    ]);
    await popup.waitForURL(net.joining_link);
    const clicks = await server.db.query<{ site_id: string; ip_hash: string | null; user_agent: string | null }>(
      sql`SELECT site_id, ip_hash, user_agent FROM join_clicks WHERE network_id = ${net.id}`,
    );
    expect(clicks).toHaveLength(1);
    expect(clicks[0].site_id).toBe("offeratlas");
    expect(clicks[0].ip_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(clicks[0].user_agent).toContain("Chrome");
    // The opener is cut: the network's page cannot script ours.
    expect(await popup.evaluate(() => window.opener)).toBeNull();
    await context.close();
  });

  it("lists traffic sources featured first, and opens one", async () => {
    const { context, page } = await fresh();
    await page.goto("/traffic-sources", { waitUntil: "networkidle" });
    await page.getByRole("heading", { name: "Enter a search term below to find traffic sources" }).waitFor();
    const featured = await page
      .locator("[data-traffic-source-id]")
      .evaluateAll((rows) => rows.map((r) => r.hasAttribute("data-featured")));
    const firstPlain = featured.indexOf(false);
    expect(firstPlain).toBeGreaterThan(0);
    expect(featured.slice(firstPlain)).not.toContain(true);
    const link = page.locator("[data-traffic-source-id] td:nth-child(2) a").first();
    const name = (await link.textContent())!;
    await link.click();
    await page.waitForURL(/\/traffic-sources\/details\/\d+$/);
    await page.getByRole("heading", { name, level: 1 }).waitFor();
    await context.close();
  });

  it("lands old-site addresses on the canonical pages", async () => {
    const [net] = await server.db.query<{ id: number; slug: string; legacy_id: number }>(
      sql`SELECT id, slug, legacy_id FROM networks ORDER BY id LIMIT 1`,
    );
    const [src] = await server.db.query<{ id: number; legacy_id: number }>(
      sql`SELECT id, legacy_id FROM traffic_sources ORDER BY id LIMIT 1`,
    );
    const { context, page } = await fresh();
    await page.goto(`/affiliate-networks/profile/networkId/${net.legacy_id}/whatever`);
    expect(page.url()).toBe(`${server.baseUrl}/network/${net.id}/${net.slug}`);
    await page.goto(`/network/${net.id}`);
    expect(page.url()).toBe(`${server.baseUrl}/network/${net.id}/${net.slug}`);
    await page.goto(`/traffic/details/id/${src.legacy_id}`);
    expect(page.url()).toBe(`${server.baseUrl}/traffic-sources/details/${src.id}`);
    await page.goto("/traffic/details/id");
    expect(page.url()).toBe(`${server.baseUrl}/traffic-sources`);
    await context.close();
  });
});
