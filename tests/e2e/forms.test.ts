// The lead forms in Chromium: a submission with mistakes shows the docs/product.md §5
// messages beside the fields (found in the browser, before anything is sent)
// and keeps what was typed; fixed, it is accepted and confirmed. Without
// JavaScript the server finds the same mistakes and re-renders the typed
// values. The logo upload refuses a renamed text file, an oversized image and
// wrong dimensions with the exact messages, and accepts a good logo.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { array, sql } from "#db/client.ts";
import { LEAD_CONFIRMATIONS } from "#contracts/leads.ts";
import { LEAD_RATE_LIMIT } from "#core/leads/leads.ts";
import { TOO_MANY_REQUESTS } from "#core/rate-limit/limiter.ts";
import { NO_CONNECTION, SERVER_FAULT } from "#app/routes/leads/lead-failures.ts";
import { browserAvailable, launchBrowser } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/server.ts";
import { GOOD_LOGO, OVERSIZED_LOGO, TEXT_AS_PNG, WRONG_SIZE_LOGO } from "../fixtures/images.ts";

describe.skipIf(!browserAvailable)("lead forms in Chromium", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;
  let js: BrowserContext;
  let noJs: BrowserContext;
  // Uploads and the mail outbox go to a throwaway directory, not the checkout's ./data.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "oa-forms-"));

  beforeAll(async () => {
    server = await startTestServer({
      seed: { networks: 6, offers: 60, trafficSources: 2 },
      env: { DATA_DIR: dataDir },
    });
    browser = await launchBrowser();
    js = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    noJs = await browser.newContext({ viewport: { width: 1280, height: 1000 }, javaScriptEnabled: false });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const open = async (context: BrowserContext, path: string) => {
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}${path}`, { waitUntil: "networkidle" });
    return page;
  };
  /** A control of the page's own form (the navigation's login dropdown has an Email field too). */
  const field = (page: Page, label: string) =>
    page.locator("main").getByLabel(new RegExp(`^${label.replace(/[()$]/g, "\\$&")}( \\*)?$`));
  const fieldError = (page: Page, name: string) => page.locator(`[data-field-error="${name}"]`);
  const errorOf = async (page: Page, name: string) => (await fieldError(page, name).textContent())?.trim();
  /** Counts the form posts the page sends, to tell browser-side from server-side checks (not the ad-impression report). */
  const countPosts = (page: Page) => {
    const posts: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && new URL(r.url()).pathname !== "/ads/impressions") posts.push(r.url());
    });
    return posts;
  };

  it("help: shows the messages beside the fields, keeps the input, then confirms", async () => {
    const page = await open(js, "/contact");
    const posts = countPosts(page);
    await field(page, "Name").fill("R2-D2");
    await field(page, "Email").fill("alex@");
    await field(page, "Subject").fill("Wrong payout shown");
    await field(page, "Message").fill("Hi");
    await page.getByRole("button", { name: "Send message" }).click();

    await fieldError(page, "name").waitFor();
    expect(await errorOf(page, "name")).toBe("Name can only contain alphabets and spaces");
    expect(await errorOf(page, "email")).toBe("alex@ is not a valid email address");
    expect(await errorOf(page, "topic")).toBe("Topic cannot be blank");
    expect(await errorOf(page, "message")).toBe("Message must be at least 10 characters long");
    expect(await fieldError(page, "subject").count()).toBe(0);
    // The message sits beside its field and is announced with it.
    expect(await field(page, "Email").getAttribute("aria-describedby")).toBe("lf-email-error");
    expect(await field(page, "Email").getAttribute("aria-invalid")).toBe("true");
    expect(await field(page, "Subject").inputValue()).toBe("Wrong payout shown");
    expect(await field(page, "Name").inputValue()).toBe("R2-D2");
    expect(posts).toEqual([]); // found in the browser

    await field(page, "Name").fill("Alex Reader");
    await field(page, "Email").fill("alex@example.org");
    await field(page, "Topic").selectOption("Network review");
    await field(page, "Message").fill("Please check the reviews of one network.");
    await page.getByRole("button", { name: "Send message" }).click();
    await page.getByTestId("lead-confirmation").waitFor();
    expect(await page.getByTestId("lead-confirmation").textContent()).toContain(LEAD_CONFIRMATIONS.contact);
    const rows = await server.db.query<{ subject: string }>(
      sql`SELECT subject FROM contact_messages WHERE email = 'alex@example.org'`,
    );
    expect(rows).toEqual([{ subject: "[Network review] Wrong payout shown" }]);
    await page.close();
  });

  it("help: every failed post (the server's 429, a proxy's 429, no connection, a 502) is an ERROR notification, and the input stays", async () => {
    const page = await open(js, "/contact");
    await field(page, "Name").fill("Nora Retry");
    await field(page, "Email").fill("nora@example.org");
    await field(page, "Topic").selectOption("Network review");
    await field(page, "Subject").fill("Reviews of one network");
    await field(page, "Message").fill("Please look at the reviews of one network.");
    const send = () => page.getByRole("button", { name: "Send message" }).click();
    /** docs/product.md §8: a notification titled ERROR with the message of the answer. */
    const notified = async (message: string) => {
      const toast = page.locator('[data-notification="error"]').filter({ hasText: message });
      await toast.waitFor();
      expect(await toast.locator("p").allTextContents()).toEqual(["ERROR", message]);
    };

    // The server's own 429: this address has sent its share of help messages this hour.
    const keys = ["127.0.0.1", "::1", "::ffff:127.0.0.1"].map(
      (ip) => `lead:contact:${crypto.createHash("sha256").update(ip).digest("hex").slice(0, 32)}`,
    );
    for (const key of keys)
      await server.db.query(sql`INSERT INTO rate_limits (key, hits, reset_at)
        VALUES (${key}, ${LEAD_RATE_LIMIT.limit}, now() + interval '1 hour')
        ON CONFLICT (key) DO UPDATE SET hits = EXCLUDED.hits, reset_at = EXCLUDED.reset_at`);
    await send();
    await notified(TOO_MANY_REQUESTS);
    expect(await page.getByTestId("form-alert").textContent()).toBe(TOO_MANY_REQUESTS);
    await server.db.query(sql`DELETE FROM rate_limits WHERE key = ANY (${array(keys)}::text[])`);

    // Answers that never reach the page's action: a proxy's 429 with its { message }, no connection, a bare 502.
    const failures: [string, (route: Route) => Promise<void>][] = [
      [
        "Slow down: one form a minute.",
        (route) =>
          route.fulfill({
            status: 429,
            contentType: "application/json",
            body: JSON.stringify({ message: "Slow down: one form a minute." }),
          }),
      ],
      [NO_CONNECTION, (route) => route.abort("internetdisconnected")],
      [SERVER_FAULT, (route) => route.fulfill({ status: 502, contentType: "text/html", body: "<h1>Bad Gateway</h1>" })],
    ];
    const contactPosts = (url: URL) => url.pathname.startsWith("/contact");
    for (const [message, answer] of failures) {
      await page.route(contactPosts, (route) =>
        route.request().method() === "POST" ? answer(route) : route.fallback(),
      );
      await send();
      await notified(message);
      await page.unroute(contactPosts);
      // The form stays, with what was typed.
      expect(await field(page, "Subject").inputValue()).toBe("Reviews of one network");
    }

    await send();
    await page.getByTestId("lead-confirmation").waitFor();
    await page.close();
  }, 60_000);

  it("advertise without JavaScript: the server shows the same messages and keeps the input", async () => {
    const page = await open(noJs, "/advertise");
    await field(page, "Name").fill("Sam Buyer");
    await field(page, "Email").fill("sam at brand");
    await field(page, "Company").fill("Brand Media Ltd");
    await field(page, "Website").fill("brand");
    await field(page, "Banner ads").check();
    await field(page, "Message").fill("The header banner for March.");
    await page.getByRole("button", { name: "Send request" }).click();
    await page.waitForLoadState("load");

    expect(await errorOf(page, "email")).toBe("sam at brand is not a valid email address");
    expect(await errorOf(page, "website")).toBe("brand is not a valid url");
    expect(await errorOf(page, "budget")).toBe("Monthly Budget cannot be blank");
    expect(await field(page, "Name").inputValue()).toBe("Sam Buyer");
    expect(await field(page, "Company").inputValue()).toBe("Brand Media Ltd");
    expect(await field(page, "Message").inputValue()).toBe("The header banner for March.");
    expect(await field(page, "Banner ads").isChecked()).toBe(true);

    await field(page, "Email").fill("sam@brand.example.com");
    await field(page, "Website").fill("https://brand.example.com");
    await field(page, "Monthly Budget").selectOption("$1,000 - $5,000");
    await page.getByRole("button", { name: "Send request" }).click();
    await page.getByTestId("lead-confirmation").waitFor();
    expect(await page.getByTestId("lead-confirmation").textContent()).toContain(LEAD_CONFIRMATIONS.advertise);
    const [row] = await server.db.query<{ details: { placements: string[] } }>(
      sql`SELECT details FROM advertisement_requests WHERE email = 'sam@brand.example.com'`,
    );
    expect(row.details.placements).toEqual(["Banner ads"]);
    await page.close();
  });

  it("advertise with JavaScript: browser-side messages, then the confirmation", async () => {
    const page = await open(js, "/advertise");
    const posts = countPosts(page);
    await page.getByRole("button", { name: "Send request" }).click();
    await fieldError(page, "name").waitFor();
    expect(await errorOf(page, "name")).toBe("Name cannot be blank");
    expect(await errorOf(page, "placements")).toBe("Placements cannot be blank");
    expect(posts).toEqual([]);
    await field(page, "Name").fill("Kim Lee");
    await field(page, "Email").fill("kim@ads.example.com");
    await field(page, "Company").fill("Ads Co");
    await field(page, "Website").fill("ads.example.com");
    await field(page, "Phone").fill("+44 20 7946 0000");
    await field(page, "Newsletter").check();
    await field(page, "Monthly Budget").selectOption("Under $1,000");
    await field(page, "Message").fill("One newsletter slot in April, please.");
    await page.getByRole("button", { name: "Send request" }).click();
    await page.getByTestId("lead-confirmation").waitFor();
    expect(posts).toHaveLength(1);
    await page.close();
  });

  const fillNetwork = async (page: Page) => {
    await field(page, "Network Name").fill("Zenith Leads");
    await field(page, "Website").fill("https://zenith-leads.example.com");
    await field(page, "Country").selectOption("DE");
    await field(page, "Number of Offers").fill("85");
    await field(page, "Tracking Platform").selectOption({ index: 1 });
    await field(page, "Description").fill(
      "Exclusive nutra and finance offers with weekly payments and dedicated managers.",
    );
    await page.locator('input[name="verticals"]').first().check();
    await page.locator('input[name="commissionTypes"]').first().check();
    await field(page, "Payment Frequency").selectOption({ index: 1 });
    await field(page, "Minimum Payment (USD)").fill("100");
    await page.locator('input[name="paymentMethods"]').first().check();
    await field(page, "Contact Name").fill("Maria Garcia");
    await field(page, "Email").fill("maria@zenith-leads.example.com");
  };
  const chooseLogo = (page: Page, name: string, buffer: Buffer, mimeType = "image/png") =>
    field(page, "Logo").setInputFiles({ name, mimeType, buffer });

  it("add your network: refuses bad logos with the exact messages and accepts a good one", async () => {
    const page = await open(js, "/add-your-network");
    const posts = countPosts(page);
    const submit = () => page.getByRole("button", { name: "Submit network" }).click();

    // docs/product.md §3: the country list starts with an empty "Select Country", the United States first.
    const countries = await field(page, "Country")
      .locator("option")
      .evaluateAll((options) => options.map((o) => [(o as HTMLOptionElement).value, o.textContent]));
    expect(countries.slice(0, 2)).toEqual([
      ["", "Select Country"],
      ["US", "United States"],
    ]);
    expect(countries.length).toBeGreaterThan(240);
    expect(await field(page, "Country").inputValue()).toBe("");

    // Mistakes first: messages beside the fields, typed values kept.
    await field(page, "Network Name").fill("Zenith Leads");
    await field(page, "Website").fill("zenith");
    await field(page, "Number of Offers").fill("lots");
    await submit();
    await fieldError(page, "website").waitFor();
    expect(await errorOf(page, "website")).toBe("zenith is not a valid url");
    expect(await errorOf(page, "offerCount")).toBe("Number of Offers must be an integer");
    expect(await errorOf(page, "contactName")).toBe("Contact Name cannot be blank");
    expect(await errorOf(page, "verticals")).toBe("Verticals cannot be blank");
    expect(await errorOf(page, "logo")).toBe("Logo cannot be blank");
    expect(await field(page, "Network Name").inputValue()).toBe("Zenith Leads");

    await fillNetwork(page);
    const cases: [string, Buffer, string][] = [
      ["logo.png", TEXT_AS_PNG(), "Uploaded file is not a valid image"],
      ["logo.png", OVERSIZED_LOGO(), "File size must not exceed 500 KB"],
      ["logo.png", WRONG_SIZE_LOGO(), "Invalid file dimensions. Expected: 200px X 200px"],
      ["logo.bmp", GOOD_LOGO(), "Invalid file extension. Expected: png, jpg, jpeg, gif, webp"],
    ];
    for (const [name, bytes, message] of cases) {
      await chooseLogo(page, name, bytes);
      await submit();
      await page.waitForFunction(
        ([m]) => document.querySelector('[data-field-error="logo"]')?.textContent?.trim() === m,
        [message],
      );
      expect(await fieldError(page, "logo").count()).toBe(1);
      // Only the logo is wrong now.
      expect(await page.locator("[data-field-error]").count(), message).toBe(1);
    }
    expect(posts).toEqual([]);

    await chooseLogo(page, "zenith.png", GOOD_LOGO());
    await submit();
    await page.getByTestId("lead-confirmation").waitFor();
    expect(await page.getByTestId("lead-confirmation").textContent()).toContain(LEAD_CONFIRMATIONS.network);
    const [row] = await server.db.query<{ name: string; logo_path: string; status: string; country: string }>(
      sql`SELECT name, logo_path, status, details->>'country' AS country FROM network_submissions
        WHERE email = 'maria@zenith-leads.example.com'`,
    );
    expect(row).toMatchObject({ name: "Zenith Leads", status: "pending", country: "DE" });
    expect(row.logo_path).toMatch(/^uploads\/network-logos\/[0-9a-f-]{36}\.png$/);
    await page.close();
  }, 60_000);

  it("add your network without JavaScript: the server judges the logo by its bytes and keeps the input", async () => {
    const page = await open(noJs, "/add-your-network");
    await fillNetwork(page);
    await field(page, "Network Name").fill("Renamed Text Network");
    await chooseLogo(page, "logo.png", TEXT_AS_PNG());
    await page.getByRole("button", { name: "Submit network" }).click();
    await page.waitForLoadState("load");
    expect(await errorOf(page, "logo")).toBe("Uploaded file is not a valid image");
    expect(await field(page, "Network Name").inputValue()).toBe("Renamed Text Network");
    expect(await field(page, "Description").inputValue()).toContain("Exclusive nutra");
    expect(await page.locator('input[name="verticals"]').first().isChecked()).toBe(true);

    await chooseLogo(page, "logo.png", WRONG_SIZE_LOGO());
    await page.getByRole("button", { name: "Submit network" }).click();
    await page.waitForLoadState("load");
    expect(await errorOf(page, "logo")).toBe("Invalid file dimensions. Expected: 200px X 200px");

    await chooseLogo(page, "logo.png", GOOD_LOGO());
    await page.getByRole("button", { name: "Submit network" }).click();
    await page.getByTestId("lead-confirmation").waitFor();
    const rows = await server.db.query(sql`SELECT id FROM network_submissions WHERE name = 'Renamed Text Network'`);
    expect(rows).toHaveLength(1);
    await page.close();
  }, 60_000);
});
