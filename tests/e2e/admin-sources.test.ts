// Offer sources in Chromium (issue #13): an admin opens /admin/sources from the
// console menu, adds an Everflow source with an API key through the form (a bad
// endpoint is refused beside its field first, and the typed key is not sent
// back), sees it listed with its schedule and "API key stored", and disables it;
// the key is sealed in the database and appears in no page.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { browserAvailable, launchBrowser } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/server.ts";
import { sessionCookie, signInWithRoles } from "../helpers/staff.ts";

const SECRETS_KEY = "5e".repeat(32);
const API_KEY = "ef-browser-Kx82PqLw0Z";

describe.skipIf(!browserAvailable)("offer sources in Chromium", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;
  let admin: Awaited<ReturnType<typeof signInWithRoles>>;
  let network: { id: number; name: string };

  beforeAll(async () => {
    server = await startTestServer({ seed: { networks: 3, offers: 10, trafficSources: 1 }, env: { SECRETS_KEY } });
    browser = await launchBrowser();
    admin = await signInWithRoles(server, ["admin"], "Ada Admin");
    [network] = await server.db.query<{ id: number; name: string }>(
      sql`SELECT id, name FROM networks ORDER BY id LIMIT 1`,
    );
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
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

  it("an admin adds a source with a sealed API key and disables it", async () => {
    const page = await adminPage("/admin");
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Offer sources" }).click();
    await page.getByRole("heading", { level: 1, name: "Offer sources" }).waitFor();
    expect(await page.getByTestId("sources-table").textContent()).toContain("No offer sources yet.");

    const form = page.getByTestId("add-source");
    expect(await form.getByLabel("API key").getAttribute("type")).toBe("password");
    await form.getByLabel("Network").selectOption(String(network.id));
    await form.getByLabel("Platform").selectOption("everflow");
    await form.getByLabel("Endpoint").fill("ftp://api.eflow.team/v1");
    await form.getByLabel("API key").fill(API_KEY);
    await form.getByLabel("Sync every (minutes)").fill("60");
    const refusedAnswer = page.waitForResponse(
      (r) => r.request().method() === "POST" && r.url().includes("/admin/sources"),
    );
    await form.getByRole("button", { name: "Add source" }).click();
    // The refusal carries back what was typed, but never the key.
    const refusedBody = (await (await refusedAnswer).body()).toString("utf8");
    expect(refusedBody).toContain("ftp://api.eflow.team/v1");
    expect(refusedBody).not.toContain(API_KEY);
    const endpointError = form.locator('[data-field-error="endpoint"]');
    await endpointError.waitFor();
    // The form's error summary links the message to its field.
    expect(await form.getByTestId("add-result").getByRole("link").textContent()).toBe(
      "endpoint must be an http(s) address",
    );
    expect(await endpointError.textContent()).toBe("endpoint must be an http(s) address");
    // What was typed stays, except the key, which the server never sends back.
    expect(await form.getByLabel("Endpoint").inputValue()).toBe("ftp://api.eflow.team/v1");
    expect(await form.getByLabel("Sync every (minutes)").inputValue()).toBe("60");
    expect(await server.db.query(sql`SELECT 1 FROM offer_sources`)).toEqual([]);

    await form.getByLabel("Endpoint").fill("https://api.eflow.team/v1/affiliates/alloffers");
    await form.getByLabel("API key").fill(API_KEY);
    await form.getByRole("button", { name: "Add source" }).click();
    const added = form.locator('[data-testid="add-result"][role="status"]');
    await added.waitFor();
    const [source] = await server.db.query<{ id: number; enabled: boolean; every_minutes: number; hex: string }>(
      sql`SELECT id, enabled, every_minutes, encode(credentials, 'hex') AS hex FROM offer_sources`,
    );
    expect(await added.textContent()).toBe(`Source #${source.id} added for ${network.name}.`);
    expect(source).toMatchObject({ enabled: true, every_minutes: 60 });
    expect(Buffer.from(source.hex, "hex").toString("latin1")).not.toContain(API_KEY);

    const row = page.locator(`[data-testid="sources-table"] tr[data-row-id="${source.id}"]`);
    await row.waitFor();
    const cells = await row.locator("td").allTextContents();
    expect(cells[0]).toBe(`${network.name}Source #${source.id}`);
    expect(cells[1]).toBe("everflow");
    expect(cells[2]).toBe("https://api.eflow.team/v1/affiliates/alloffersAPI key stored");
    expect(cells[3]).toMatch(/^every 1 hnext .* UTCretired after 3 missed runs$/);
    expect(cells[5]).toBe("Not synced yet");
    expect(cells[6]).toBe("Never");
    expect(await page.content()).not.toContain(API_KEY);

    await row.getByRole("button", { name: "Disable" }).click();
    await row.getByRole("button", { name: "Enable" }).waitFor();
    expect(await row.getByTestId("source-enabled").textContent()).toBe("Disabled");
    const [saved] = await server.db.query<{ enabled: boolean }>(
      sql`SELECT enabled FROM offer_sources WHERE id = ${source.id}`,
    );
    expect(saved.enabled).toBe(false);

    // A fresh load (server-rendered) shows the same, and still no key.
    const reloaded = await adminPage("/admin/sources");
    expect(await reloaded.getByTestId("source-enabled").textContent()).toBe("Disabled");
    expect(await reloaded.content()).not.toContain(API_KEY);
    const audit = await server.db.query<{ action: string; text: string }>(sql`
      SELECT action, after::text AS text FROM audit_log WHERE subject_type = 'offer_source' ORDER BY id`);
    expect(audit.map((a) => a.action)).toEqual(["offer_source.create", "offer_source.update"]);
    for (const entry of audit) expect(entry.text).not.toContain(API_KEY);
  });
});
