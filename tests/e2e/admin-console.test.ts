// The console's dashboard, users and audit log in Chromium: an admin grants the
// moderator role from /admin/users; that user's very next page is a moderator's
// (the submissions queue opens, the users page answers 403); a plain user gets
// 403 and a visitor 401 on /admin; the audit page shows the change, before and
// after; an admin cannot untick their own admin role.
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { OWN_ADMIN_ROLE } from "#core/auth/roles.ts";
import { browserAvailable, launchBrowser } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/server.ts";
import { sessionCookie, signInWithRoles } from "../helpers/staff.ts";

type Account = Awaited<ReturnType<typeof signInWithRoles>>;

describe.skipIf(!browserAvailable)("the admin console in Chromium", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;
  let admin: Account;

  beforeAll(async () => {
    server = await startTestServer({ seed: { networks: 3, offers: 10, trafficSources: 1 } });
    browser = await launchBrowser();
    admin = await signInWithRoles(server, ["admin"], "Ada Admin");
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const contextOf = async (account?: Account) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    if (account) await context.addCookies([sessionCookie(account, server.baseUrl)]);
    return context;
  };
  const open = async (context: BrowserContext, where: string) => {
    const page = await context.newPage();
    const answer = await page.goto(`${server.baseUrl}${where}`, { waitUntil: "networkidle" });
    return { page, status: answer?.status() };
  };
  const scopeOf = async (id: number) =>
    (await server.db.query<{ scope: string[] }>(sql`SELECT scope FROM users WHERE id = ${id}`))[0].scope;

  it("an admin grants moderator; the user then works the queues but not the users page", async () => {
    const user = await signInWithRoles(server, [], "Uma User");
    const userContext = await contextOf(user);
    // Before the grant: no console at all.
    expect((await open(userContext, "/admin/submissions")).status).toBe(403);

    const adminContext = await contextOf(admin);
    const { page: dashboard, status } = await open(adminContext, "/admin");
    expect(status).toBe(200);
    await dashboard.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
    const menu = dashboard.getByRole("navigation", { name: "Console" }).getByRole("link");
    expect((await menu.allTextContents()).slice(0, 1)).toEqual(["Dashboard"]);
    expect(await menu.allTextContents()).toEqual(expect.arrayContaining(["Users", "Audit log"]));

    await dashboard.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Users" }).click();
    await dashboard.getByRole("heading", { level: 1, name: "Users" }).waitFor();
    await dashboard.getByRole("searchbox", { name: "Email or name" }).fill(user.email);
    await dashboard.getByRole("button", { name: "Find" }).click();
    await dashboard.waitForURL(/search=/);
    // Found by the server: the one matching account.
    await dashboard
      .getByTestId("users-table-total")
      .filter({ hasText: /^1 item$/ })
      .waitFor();
    const row = dashboard.locator(`tr[data-row-id="${user.user.id}"]`);
    const moderatorBox = row.getByRole("checkbox", { name: "moderator" });
    expect(await moderatorBox.isChecked()).toBe(false);
    await moderatorBox.check();
    await row.getByRole("button", { name: "Save roles" }).click();
    await row.getByTestId("roles-result").waitFor();
    expect(await row.getByTestId("roles-result").textContent()).toBe(`Saved: ${user.email} is now moderator.`);
    expect(await row.getByRole("checkbox", { name: "moderator" }).isChecked()).toBe(true);
    expect(await scopeOf(user.user.id)).toEqual(["moderator"]);

    // The same session, no new login: the queues open, the admin pages do not.
    const { page: queue, status: queueStatus } = await open(userContext, "/admin/submissions");
    expect(queueStatus).toBe(200);
    await queue.getByRole("heading", { level: 1, name: "Network submissions" }).waitFor();
    const moderatorMenu = await queue.getByRole("navigation", { name: "Console" }).getByRole("link").allTextContents();
    expect(moderatorMenu).toEqual(expect.arrayContaining(["Submissions", "Reviews", "Inbox"]));
    for (const adminOnly of ["Dashboard", "Users", "Audit log"]) expect(moderatorMenu).not.toContain(adminOnly);
    expect((await open(userContext, "/admin/users")).status).toBe(403);
    expect((await open(userContext, "/admin/audit")).status).toBe(403);
    // The dashboard is an admin's: a moderator opening /admin lands on the submissions.
    const { page: landing } = await open(userContext, "/admin");
    expect(new URL(landing.url()).pathname).toBe("/admin/submissions");

    // The audit page lists the change with the roles before and after.
    const { page: audit } = await open(adminContext, "/admin/audit");
    await audit.getByLabel("Action").fill("user.roles");
    await audit.getByRole("button", { name: "Filter" }).click();
    await audit.waitForURL(/action=user\.roles/);
    const entry = audit.getByTestId("audit-table").locator("tbody tr", { hasText: `user #${user.user.id}` });
    await entry.waitFor();
    expect(await entry.textContent()).toContain(admin.email);
    const roles = entry.locator('tr[data-field="roles"]');
    expect(await roles.locator('[data-side="before"]').textContent()).toBe("none");
    expect(await roles.locator('[data-side="after"]').textContent()).toBe("→ moderator (changed)");
    await Promise.all([userContext.close(), adminContext.close()]);
  });

  it("saves every ticked role, and keeps an admin's own admin role and says why", async () => {
    const context = await contextOf(admin);
    const { page } = await open(context, `/admin/users?search=${encodeURIComponent(admin.email)}`);
    const row = page.locator(`tr[data-row-id="${admin.user.id}"]`);
    const result = row.getByTestId("roles-result");
    await row.getByRole("checkbox", { name: "moderator" }).check();
    await row.getByRole("button", { name: "Save roles" }).click();
    await result.filter({ hasText: "Saved" }).waitFor();
    expect(await result.textContent()).toBe(`Saved: ${admin.email} is now admin and moderator.`);
    expect(await scopeOf(admin.user.id)).toEqual(["admin", "moderator"]);

    await row.getByRole("checkbox", { name: "admin" }).uncheck();
    await row.getByRole("button", { name: "Save roles" }).click();
    await result.filter({ hasText: OWN_ADMIN_ROLE }).waitFor();
    expect(await result.getAttribute("role")).toBe("alert");
    expect(await scopeOf(admin.user.id)).toEqual(["admin", "moderator"]);
    await context.close();
  });

  it("answers 403 to a plain user and 401 to a visitor on /admin", async () => {
    const plain = await contextOf(await signInWithRoles(server, []));
    expect((await open(plain, "/admin")).status).toBe(403);
    const visitor = await contextOf();
    const { page, status } = await open(visitor, "/admin/inbox?status=new");
    expect(status).toBe(401);
    // The 401 page offers to log in and come back to the console.
    await page.getByRole("link", { name: "Log in", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/login");
    expect(new URL(page.url()).searchParams.get("redirectTo")).toBe("/admin");
    await Promise.all([plain.close(), visitor.close()]);
  });
});
