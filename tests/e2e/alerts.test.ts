// Saved searches and alert mails in Chromium (issue #14): an affiliate saves a
// search from the search page, an offer matching it is added in the console, the
// alert job runs (its clock given, no waiting), the mail is in the outbox with the
// offer and an unsubscribe link, and that link, opened signed out and confirmed,
// turns the saved search's alert off.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { browserAvailable, launchBrowser } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/server.ts";
import { sessionCookie, signInWithRoles } from "../helpers/staff.ts";
import { aMondayAhead, mailsTo, offerTools } from "../alerts/helpers.ts";

describe.skipIf(!browserAvailable)("saved searches and alert mails in Chromium", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;
  const errors: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ seed: { networks: 2, offers: 10, trafficSources: 1 } });
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("saves a search, mails a matching new offer, and unsubscribes from the mail's link signed out", async () => {
    const affiliate = await signInWithRoles(server, [], "Sofia Saver");
    const admin = await signInWithRoles(server, ["admin"], "Ada Admin");
    const signedIn = await browser.newContext();
    await signedIn.addCookies([sessionCookie(affiliate, server.baseUrl)]);
    const page = await signedIn.newPage();
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));

    await page.goto(`${server.baseUrl}/?search=wombatine&countries=US&selectedTab=newest`, {
      waitUntil: "networkidle",
    });
    await page.getByText("Save this search").click();
    await page.getByLabel("Name").fill("Wombatine in the US");
    await page.getByLabel("E-mail alert").selectOption("instant");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.waitForURL(/\/account\/searches$/);
    await expect.poll(() => page.getByTestId("action-notice").textContent()).toBe('Saved "Wombatine in the US".');
    const saved = page.getByTestId("saved-search");
    expect(await saved.count()).toBe(1);
    // Its link opens the search again, filters and tab included.
    const href = await saved.getByRole("link", { name: "Wombatine in the US" }).getAttribute("href");
    const opened = new URLSearchParams(href!.split("?")[1]);
    expect([opened.get("search"), opened.get("countries"), opened.get("selectedTab")]).toEqual([
      "wombatine",
      "US",
      "newest",
    ]);

    const [network] = await server.db.query<{ id: number; name: string }>(
      sql`SELECT id::int, name FROM networks ORDER BY id LIMIT 1`,
    );
    const offer = await offerTools(server, admin).create({
      name: "Wombatine Sleep Drops",
      networkId: network.id,
      payoutAmount: 31,
      countries: ["US"],
    });
    await server.app.services.alerts.run(aMondayAhead());

    const [mail] = await mailsTo(server, affiliate.email);
    expect(mail.text).toContain(`- New offer: Wombatine Sleep Drops (${network.name}), $31.00 CPA`);
    expect(mail.text).toContain(`/offer/${offer.id}/${offer.slug}`);
    const link = /<([^>]+)>/.exec(mail.headers["List-Unsubscribe"])![1];
    expect(mail.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");

    // Opened from a mail client: no session. The link names PUBLIC_URL; this server listens elsewhere.
    const signedOut = await browser.newContext();
    const mailReader = await signedOut.newPage();
    mailReader.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    const answer = await mailReader.goto(`${server.baseUrl}${new URL(link).pathname}`, { waitUntil: "networkidle" });
    expect(answer?.status()).toBe(200);
    await mailReader.getByRole("button", { name: "Unsubscribe" }).click();
    await expect
      .poll(() => mailReader.getByTestId("unsubscribed").textContent())
      .toBe("You will no longer receive all your instant alert e-mails.");

    // The account page shows the alert off.
    await page.reload({ waitUntil: "networkidle" });
    expect(await page.getByLabel("E-mail alert for Wombatine in the US").inputValue()).toBe("none");

    // Renamed, then deleted, from the same page.
    await page.getByLabel("New name for Wombatine in the US").fill("Wombatine, muted");
    await page.getByRole("button", { name: "Rename" }).click();
    await expect.poll(() => page.getByTestId("action-notice").textContent()).toBe("Renamed.");
    await expect.poll(() => saved.getByRole("link").textContent()).toBe("Wombatine, muted");
    await page.getByRole("button", { name: "Delete Wombatine, muted" }).click();
    await expect.poll(() => page.getByTestId("action-notice").textContent()).toBe("Saved search deleted.");
    expect(await saved.count()).toBe(0);

    // Signed out, the search page offers saving after logging in, and brings the visitor back.
    await mailReader.goto(`${server.baseUrl}/?search=wombatine`, { waitUntil: "networkidle" });
    const toLogin = await mailReader.getByTestId("save-search").getAttribute("href");
    expect(toLogin).toBe(`/login?redirectTo=${encodeURIComponent("/?search=wombatine")}`);
    expect(errors).toEqual([]);
    await signedIn.close();
    await signedOut.close();
  });
});
