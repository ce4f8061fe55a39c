// The console's moderation queues in Chromium, as the done-when states
// them: a network submitted through the public form is approved by a moderator
// and appears in /networks with its logo; a reader reports a review, a
// moderator hides it, and the network's average and count change on its page.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { refreshStanding } from "#core/reviews/standing.ts";
import { LEAD_CONFIRMATIONS } from "#contracts/leads.ts";
import { browserAvailable, launchBrowser } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/server.ts";
import { sessionCookie, signInWithRoles } from "../helpers/staff.ts";
import { GOOD_LOGO } from "../fixtures/images.ts";

describe.skipIf(!browserAvailable)("moderation in Chromium", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "oa-moderation-"));

  beforeAll(async () => {
    server = await startTestServer({
      seed: { networks: 6, offers: 30, trafficSources: 1 },
      env: { DATA_DIR: dataDir },
    });
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** A browser context signed in with the given roles (none: a plain reader). */
  const contextAs = async (roles: ("moderator" | "admin")[]) => {
    const account = await signInWithRoles(server, roles);
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    await context.addCookies([sessionCookie(account, server.baseUrl)]);
    return context;
  };
  const open = async (context: BrowserContext, where: string) => {
    const page = await context.newPage();
    const answer = await page.goto(`${server.baseUrl}${where}`, { waitUntil: "networkidle" });
    return { page, status: answer?.status() };
  };
  const field = (page: Page, label: string) => page.locator("main").getByLabel(new RegExp(`^${label}( \\*)?$`));

  it("a moderator approves a submitted network and it is listed with its logo", async () => {
    const visitor = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const { page: form } = await open(visitor, "/add-your-network");
    await field(form, "Network Name").fill("Aurora Yield Partners");
    await field(form, "Website").fill("https://aurora-yield.example.com");
    await field(form, "Number of Offers").fill("40");
    await field(form, "Tracking Platform").selectOption({ index: 1 });
    await field(form, "Description").fill("CPA network for finance and sweepstakes offers, paid weekly by wire.");
    await form.locator('input[name="verticals"]').first().check();
    await form.locator('input[name="commissionTypes"]').first().check();
    await field(form, "Payment Frequency").selectOption({ index: 1 });
    await field(form, "Minimum Payment \\(USD\\)").fill("50");
    await form.locator('input[name="paymentMethods"]').first().check();
    await field(form, "Contact Name").fill("Nora Quinn");
    await field(form, "Email").fill("nora@aurora-yield.example.com");
    await field(form, "Logo").setInputFiles({ name: "aurora.png", mimeType: "image/png", buffer: GOOD_LOGO() });
    await form.getByRole("button", { name: "Submit network" }).click();
    await form.getByTestId("lead-confirmation").waitFor();
    expect(await form.getByTestId("lead-confirmation").textContent()).toContain(LEAD_CONFIRMATIONS.network);
    await visitor.close();

    const moderator = await contextAs(["moderator"]);
    const { page: queue } = await open(moderator, "/admin/submissions?status=new");
    const row = queue.getByTestId("submissions-table").locator("tr", { hasText: "Aurora Yield Partners" });
    await row.waitFor();
    // The uploaded logo is shown to the moderator before anything is public.
    const thumbnail = row.locator("img");
    expect(await thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await row.getByRole("link", { name: "Aurora Yield Partners" }).click();
    await queue.getByRole("heading", { level: 1, name: "Aurora Yield Partners" }).waitFor();
    expect(await queue.locator("main").textContent()).toContain("CPA network for finance and sweepstakes offers");
    await queue.getByRole("button", { name: "Approve and list" }).click();
    // Decided, the submission's forms give way to the decision.
    await queue.getByTestId("action-notice").waitFor();
    expect(await queue.getByTestId("action-notice").textContent()).toBe("Approved: Aurora Yield Partners is listed.");
    expect(await queue.getByTestId("submission-status").textContent()).toContain("Status: approved");
    await moderator.close();

    const reader = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const { page: listing } = await open(reader, "/networks?search=Aurora");
    const listed = listing.locator("main tr", { hasText: "Aurora Yield Partners" });
    await listed.waitFor();
    const logo = listed.locator('img[src^="/media/network-logos/"]');
    await logo.scrollIntoViewIfNeeded();
    await listing.waitForFunction(
      (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
      await logo.elementHandle(),
    );
    const logoAnswer = await reader.request.get(`${server.baseUrl}${await logo.getAttribute("src")}`);
    expect(logoAnswer.status()).toBe(200);
    expect(logoAnswer.headers()["cache-control"]).toContain("immutable");
    await reader.close();
  }, 90_000);

  it("a reader reports a review, a moderator hides it, and the network's average and count follow", async () => {
    const [network] = await server.db.query<{ id: number; slug: string }>(
      sql`SELECT id, slug FROM networks WHERE status = 'active' ORDER BY id LIMIT 1`,
    );
    // Three published reviews from established readers (the tests' seed has none).
    for (const [rating, comment] of [
      [5, "Paid on time for two years, responsive affiliate manager and clear terms."],
      [4, "Good finance offers, weekly payments after the first month of traffic."],
      [1, "Best network ever!!! Huge payouts, everyone should join right now today."],
    ] as const) {
      const author = await signInWithRoles(server, []);
      await server.db.query(sql`
        INSERT INTO reviews (network_id, user_id, site_id, rating, comment, created_at)
        VALUES (${network.id}, ${author.user.id}, ${server.config.siteId}, ${rating}, ${comment},
                now() - make_interval(hours => ${rating}))`);
    }
    await refreshStanding(server.db, network.id);
    const networkPage = `/network/${network.id}/${network.slug}`;
    const standing = async () => {
      const [row] = await server.db.query<{ avg: string; n: number }>(sql`
        SELECT to_char(round(avg(rating), 2), 'FM0.00') AS avg, count(*)::int AS n
        FROM reviews WHERE network_id = ${network.id} AND status = 'published'`);
      return row;
    };
    const before = await standing();

    const readerContext = await contextAs([]);
    const { page: reader } = await open(readerContext, `${networkPage}#reviews`);
    expect(await reader.getByTestId("review-count").textContent()).toBe(`${before.n} reviews`);
    expect(await reader.getByTestId("avg-rating").textContent()).toBe(before.avg);
    const review = reader.getByTestId("review-list").locator("li", { hasText: "Best network ever" });
    const reviewId = Number(await review.getAttribute("data-review-id"));
    const comment = (await review.locator("p").first().textContent())!.trim();
    await review.getByText("Report", { exact: true }).click();
    await review.getByLabel("Fake or paid review").check();
    await review.getByLabel("Details (optional)").fill("Same wording as three other reviews posted the same hour.");
    await review.getByRole("button", { name: "Send report" }).click();
    await review.getByRole("status").waitFor();
    expect(await review.getByRole("status").textContent()).toBe("Thank you. A moderator will look at this review.");
    await readerContext.close();

    const moderator = await contextAs(["moderator"]);
    const { page: queue } = await open(moderator, "/admin/reviews");
    const row = queue.locator(`tr[data-row-id="${reviewId}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain(comment.slice(0, 40));
    expect(await row.textContent()).toContain("fake: Same wording as three other reviews");
    await row.getByLabel("Reason").fill("Copy-paste review, reported as paid");
    await row.getByRole("button", { name: "Hide" }).click();
    // The hidden review leaves the reported queue; the page says what happened.
    await queue.getByTestId("action-notice").waitFor();
    await queue.locator(`tr[data-row-id="${reviewId}"]`).waitFor({ state: "detached" });
    expect(await queue.getByTestId("action-notice").textContent()).toBe(
      "Hidden. The network's rating no longer counts it.",
    );
    const { page: hiddenQueue } = await open(moderator, "/admin/reviews?status=hidden");
    expect(await hiddenQueue.locator(`tr[data-row-id="${reviewId}"]`).textContent()).toContain(
      "Copy-paste review, reported as paid",
    );
    await moderator.close();

    const after = await standing();
    expect(after.n).toBe(before.n - 1);
    const visitor = await browser.newContext();
    const { page: shown } = await open(visitor, `${networkPage}#reviews`);
    expect(await shown.getByTestId("review-count").textContent()).toBe(`${after.n} reviews`);
    expect(await shown.getByTestId("avg-rating").textContent()).toBe(after.avg);
    expect(await shown.locator(`[data-review-id="${reviewId}"]`).count()).toBe(0);
    await visitor.close();
  }, 90_000);

  it("the inbox: a moderator takes a message, notes it, and a stale save is refused, not lost", async () => {
    const [message] = await server.db.query<{ id: number }>(sql`
      INSERT INTO contact_messages (site_id, name, email, subject, message)
      VALUES (${server.config.siteId}, 'Iris Novak', 'iris@example.com', 'Missing payout',
              'Network X has not paid my March invoice; can you check their listing?')
      RETURNING id`);
    const moderator = await contextAs(["moderator"]);
    const { page } = await open(moderator, "/admin/inbox?kind=contact&sort=name&dir=asc");
    const row = page.locator(`tr[data-row-id="contact-${message.id}"]`);
    expect(await row.textContent()).toContain("Missing payout");
    // A second tab opened on the same message before the first one saves.
    const { page: stale } = await open(moderator, "/admin/inbox?kind=contact");
    const staleRow = stale.locator(`tr[data-row-id="contact-${message.id}"]`);

    await row.getByLabel("Status").selectOption("in_progress");
    await row.getByLabel("Handled by").selectOption({ index: 1 }); // "Me (…)"
    await row.getByLabel("Note").fill("Asked the network for proof of payment.");
    await row.getByRole("button", { name: "Save" }).click();
    await row.getByRole("status").waitFor();
    expect(await row.getByRole("status").textContent()).toBe("Saved.");

    await staleRow.getByLabel("Note").fill("Closing: spam.");
    await staleRow.getByLabel("Status").selectOption("done");
    await staleRow.getByRole("button", { name: "Save" }).click();
    await staleRow.getByRole("alert").waitFor();
    expect(await staleRow.getByRole("alert").textContent()).toBe(
      "Someone else changed this message; reload it and try again",
    );
    // What the stale tab typed is still there to copy; nothing was overwritten.
    expect(await staleRow.getByLabel("Note").inputValue()).toBe("Closing: spam.");
    const [saved] = await server.db.query<{ status: string; note: string; handled: boolean }>(sql`
      SELECT status, note, handled_by IS NOT NULL AS handled FROM contact_messages WHERE id = ${message.id}`);
    expect(saved).toEqual({ status: "in_progress", note: "Asked the network for proof of payment.", handled: true });

    const { page: reloaded } = await open(moderator, "/admin/inbox?status=in_progress");
    const kept = reloaded.locator(`tr[data-row-id="contact-${message.id}"]`);
    expect(await kept.getByLabel("Note").inputValue()).toBe("Asked the network for proof of payment.");
    expect(await kept.getByLabel("Status").inputValue()).toBe("in_progress");
    await moderator.close();
  }, 90_000);
});
