// A feed source's page in Chromium (issue #13, docs/supply/feeds.md): an admin
// follows "Feed file and layout" from /admin/sources, finds the template link (and
// the template served at it), uploads a CSV in another layout (a wrong file is
// refused beside its field first), names its columns, and the next sync reads it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { browserAvailable, launchBrowser } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/server.ts";
import { sessionCookie, signInWithRoles } from "../helpers/staff.ts";
import { feedOffer } from "../fakes/feed.ts";

const DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "offeratlas-feed-e2e-"));

/** Ten offers as a network's own export: other headers, semicolons. */
const CSV = [
  "Offer ID;Title;Commission;Model;Cur;Geo",
  ...Array.from({ length: 10 }, (_, i) => {
    const o = feedOffer(i + 1);
    return [o.external_id, o.name, o.payout, o.payout_type || "pay-per-call", o.currency, o.countries].join(";");
  }),
].join("\n");

describe.skipIf(!browserAvailable)("a feed source's page in Chromium", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;
  let admin: Awaited<ReturnType<typeof signInWithRoles>>;
  let sourceId: number;

  beforeAll(async () => {
    server = await startTestServer({ seed: { networks: 2, offers: 5, trafficSources: 1 }, env: { DATA_DIR } });
    browser = await launchBrowser();
    admin = await signInWithRoles(server, ["admin"], "Ada Admin");
    const [network] = await server.db.query<{ id: number }>(sql`SELECT id FROM networks ORDER BY id LIMIT 1`);
    [{ id: sourceId }] = await server.db.query<{ id: number }>(sql`
      INSERT INTO offer_sources (network_id, platform, endpoint)
      VALUES (${network.id}, 'feed', 'https://feeds.example.com/offers.csv') RETURNING id`);
    fs.writeFileSync(path.join(DATA_DIR, "acme-offers.csv"), CSV);
    fs.writeFileSync(path.join(DATA_DIR, "acme-offers.pdf"), "not a feed");
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    fs.rmSync(DATA_DIR, { recursive: true, force: true });
  });

  it("an admin uploads a feed in another layout, maps its columns, and the sync reads it", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    await context.addCookies([sessionCookie(admin, server.baseUrl)]);
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/admin/sources`, { waitUntil: "networkidle" });
    await page.getByRole("link", { name: "Feed file and layout" }).click();
    await page.getByRole("heading", { level: 1, name: /^Feed of / }).waitFor();
    expect(page.url()).toBe(`${server.baseUrl}/admin/sources/${sourceId}/feed`);
    expect(await page.getByRole("link", { name: "offer feed template" }).getAttribute("href")).toBe(
      "/offer-feed-template.csv",
    );
    const template = await page.request.get(`${server.baseUrl}/offer-feed-template.csv`);
    expect(template.status()).toBe(200);
    expect((await template.text()).split(/\r?\n/)[0]).toBe(
      "external_id,name,description,payout,payout_type,currency,countries,verticals,preview_url,mobile,pay_per_call",
    );

    const upload = page.getByTestId("feed-upload");
    await upload.getByLabel("Feed file").setInputFiles(path.join(DATA_DIR, "acme-offers.pdf"));
    await upload.getByRole("button", { name: "Upload" }).click();
    const refused = upload.locator('[data-testid="upload-result"][role="alert"]');
    await refused.waitFor();
    expect(await refused.textContent()).toBe("The feed file must be a .csv or .json file");

    await upload.getByLabel("Feed file").setInputFiles(path.join(DATA_DIR, "acme-offers.csv"));
    await upload.getByRole("button", { name: "Upload" }).click();
    const uploaded = upload.locator('[data-testid="upload-result"][role="status"]');
    await uploaded.waitFor();
    expect(await uploaded.textContent()).toMatch(/^acme-offers\.csv uploaded \(1 KB\)/);
    expect(await page.getByTestId("feed-endpoint").textContent()).toMatch(
      new RegExp(`/feeds/source-${sourceId}-[0-9a-f-]{36}\\.csv$`),
    );

    const layout = page.getByTestId("feed-layout");
    expect(await layout.getByLabel("external_id").inputValue()).toBe("external_id");
    await layout.getByLabel("CSV delimiter").selectOption(";");
    for (const [field, column] of Object.entries({
      external_id: "Offer ID",
      name: "Title",
      payout: "Commission",
      payout_type: "Model",
      currency: "Cur",
      countries: "Geo",
    }))
      await layout.getByLabel(field, { exact: true }).fill(column);
    await layout.getByRole("button", { name: "Save layout" }).click();
    const saved = layout.locator('[data-testid="layout-result"][role="status"]');
    await saved.waitFor();
    expect(await saved.textContent()).toBe("Feed layout saved.");

    const run = await server.app.services.offerSync.run(sourceId);
    expect(run).toMatchObject({ status: "succeeded", seen: 10, new: 10, skipped: 0 });
    await page.reload({ waitUntil: "networkidle" });
    expect(await page.getByTestId("feed-last-run").textContent()).toContain("seen 10, new 10");
    expect(await page.getByTestId("feed-layout").getByLabel("payout_type").inputValue()).toBe("Model");
    await context.close();
  });
});
