// Account journeys in a real browser: register, log in from the navigation
// dropdown with Remember Me, stay logged in across a reload, log out; the route
// guard; password reset with the link from a real mail; guest-only /login.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { browserAvailable, launchBrowser, pageStarted } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/server.ts";
import { resetLinkIn, startSmtpServer, type SmtpTestServer } from "../helpers/smtp.ts";

type Server = Awaited<ReturnType<typeof startTestServer>>;

describe.skipIf(!browserAvailable)("accounts in the browser", () => {
  let server: Server;
  let smtp: SmtpTestServer;
  let browser: Browser;
  const PASSWORD = "purple walrus 19";

  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startTestServer({
      seed: { networks: 5, offers: 40, trafficSources: 3 },
      env: { SMTP_URL: smtp.url },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await smtp?.close();
  });

  async function fresh(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ baseURL: server.baseUrl });
    const page = await context.newPage();
    return { context, page };
  }

  async function registerAccount(page: Page, email: string, name = "Dana Tester") {
    await page.goto("/register");
    const form = page.locator("main form");
    await form.getByLabel("Name").fill(name);
    await form.getByLabel("Email").fill(email);
    await form.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await form.getByLabel("Confirm Password").fill(PASSWORD);
    await form.getByLabel("Phone (optional)").fill("+1 415 555 0100");
    await form.getByRole("button", { name: "Register" }).click();
    await page.getByTestId("registered").waitFor();
  }

  async function loginOnPage(page: Page, email: string, password = PASSWORD) {
    const form = page.locator("main form");
    await form.getByLabel("Email").fill(email);
    await form.getByLabel("Password").fill(password);
    await form.getByRole("button", { name: "Log In" }).click();
  }

  const logoutButton = (page: Page) => page.locator("header").getByRole("button", { name: "Logout" });

  it("registers, logs in from the dropdown with Remember Me, stays logged in after a reload, logs out", async () => {
    const { context, page } = await fresh();
    const email = "dana@example.com";
    await registerAccount(page, email);
    await expect(page.getByTestId("registered").textContent()).resolves.toContain("Your account has been created");

    await page.goto("/networks");
    await pageStarted(page);
    const header = page.locator("header");
    await header.getByRole("link", { name: "Login", exact: true }).hover();
    const dropdown = page.getByTestId("login-dropdown");
    await dropdown.waitFor({ state: "visible" });
    await dropdown.getByLabel("Email").fill(email);
    await dropdown.getByLabel("Password").fill(PASSWORD);
    await dropdown.getByLabel("Remember Me").check();
    await dropdown.getByRole("button", { name: "Log In" }).click();
    await page.waitForURL(`${server.baseUrl}/`);
    await logoutButton(page).waitFor();
    expect(await header.getByRole("link", { name: "Register" }).count()).toBe(0);

    // Remember Me: the cookie outlives the browser session.
    const cookie = (await context.cookies()).find((c) => c.name === "auth._token.local");
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe("Lax");
    expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(29 * 86_400_000);

    await page.reload();
    await logoutButton(page).waitFor();
    await page.goto("/account");
    await expect(page.locator("main").textContent()).resolves.toContain(email);

    // /login is for guests: a logged-in user lands on the home page.
    await page.goto("/login");
    expect(page.url()).toBe(`${server.baseUrl}/`);

    await logoutButton(page).click();
    await page.waitForURL(`${server.baseUrl}/`);
    await header.getByRole("link", { name: "Login", exact: true }).waitFor();
    expect((await context.cookies()).find((c) => c.name === "auth._token.local")).toBeUndefined();
    await page.goto("/account");
    expect(page.url()).toBe(`${server.baseUrl}/login?redirectTo=/account`);
    await context.close();
  });

  it("opens the login dropdown from its button with the keyboard", async () => {
    const { context, page } = await fresh();
    await page.goto("/", { waitUntil: "networkidle" });
    const dropdown = page.getByTestId("login-dropdown");
    expect(await dropdown.isVisible()).toBe(false);
    // Focus passing the Login link leaves it closed (tests/e2e/focus.test.ts); Enter on its button opens it.
    await page.locator("header").getByRole("link", { name: "Login", exact: true }).focus();
    await page.keyboard.press("Tab");
    expect(await dropdown.isVisible()).toBe(false);
    await page.keyboard.press("Enter");
    await dropdown.waitFor({ state: "visible" });
    // The opened dropdown shows the login form itself.
    await expect.poll(() => dropdown.getByLabel("Email").isVisible()).toBe(true);
    await expect.poll(() => dropdown.getByRole("button", { name: "Log In" }).isVisible()).toBe(true);
    await context.close();
  });

  it("sends a visitor from a protected page to /login and back to it after login", async () => {
    const { context, page } = await fresh();
    await registerAccount(page, "guarded@example.com", "Gwen Guarded");
    await page.goto("/account");
    expect(page.url()).toBe(`${server.baseUrl}/login?redirectTo=/account`);
    await loginOnPage(page, "guarded@example.com");
    await page.waitForURL(`${server.baseUrl}/account`);
    await page.getByRole("heading", { name: "Your account" }).waitFor();
    const main = await page.locator("main").textContent();
    expect(main).toContain("Gwen Guarded");
    expect(main).toContain("+14155550100");
    expect(main).toContain("Member since");

    // Logged in, /login and /register send the user home.
    await page.goto("/login");
    expect(page.url()).toBe(`${server.baseUrl}/`);
    await page.goto("/register");
    expect(page.url()).toBe(`${server.baseUrl}/`);
    await context.close();
  });

  it("shows the ERROR notification and stays on /login after a failed login", async () => {
    const { context, page } = await fresh();
    await page.goto("/login");
    await loginOnPage(page, "nobody@example.com", "wrong password");
    const toast = page.locator("[data-notification=error]");
    await toast.waitFor();
    expect(await toast.textContent()).toContain("ERROR");
    expect(await toast.textContent()).toContain("Invalid email or password");
    expect(new URL(page.url()).pathname).toBe("/login");
    await context.close();
  });

  it("never follows a redirect target off the site", async () => {
    const { context, page } = await fresh();
    await registerAccount(page, "redirect@example.com");
    const offSite: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).hostname === "evil.example") offSite.push(request.url());
    });
    await page.goto("/login?redirectTo=//evil.example/steal");
    await loginOnPage(page, "redirect@example.com");
    await page.waitForURL(`${server.baseUrl}/`);
    // The user lands on this site's home page, logged in, and nothing was asked of the other host.
    expect(page.url()).toBe(`${server.baseUrl}/`);
    await expect
      .poll(() => page.getByText("Enter a search term below to find and compare offers").isVisible())
      .toBe(true);
    await expect.poll(() => logoutButton(page).isVisible()).toBe(true);
    expect(offSite).toEqual([]);
    await context.close();
  });

  it("resets a forgotten password with the link from the mail", async () => {
    const { context, page } = await fresh();
    const email = "forgetful@example.com";
    await registerAccount(page, email);
    await page.goto("/forgot-password");
    await page.locator("main form").getByLabel("Email").fill(email);
    await page.locator("main form").getByRole("button", { name: "Send the reset link" }).click();
    await page.getByTestId("reset-mail-sent").waitFor();

    const link = resetLinkIn((await smtp.waitFor(email)).text);
    await page.goto(`${link.pathname}${link.search}`);
    const NEW = "tangerine comet 55";
    await page.locator("main form").getByLabel("New password").fill(NEW);
    await page.locator("main form").getByLabel("Confirm Password").fill(NEW);
    await page.locator("main form").getByRole("button", { name: "Change my password" }).click();
    await page.getByTestId("password-changed").waitFor();

    // The link works once.
    await page.goto(`${link.pathname}${link.search}`);
    await expect(page.locator("main").textContent()).resolves.toContain("invalid or has expired");

    await page.goto("/login");
    await loginOnPage(page, email, PASSWORD);
    await page.locator("[data-notification=error]").waitFor();
    expect(new URL(page.url()).pathname).toBe("/login");
    await loginOnPage(page, email, NEW);
    await page.waitForURL(`${server.baseUrl}/`);
    await logoutButton(page).waitFor();
    await context.close();
  });

  it("logs in and shows inline errors without JavaScript", async () => {
    const context = await browser.newContext({ baseURL: server.baseUrl, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/register");
    await page.locator("main form").getByRole("button", { name: "Register" }).click();
    await expect(page.locator("main").textContent()).resolves.toContain("Name cannot be blank");
    await registerAccount(page, "nojs@example.com");
    await page.goto("/login");
    await loginOnPage(page, "nojs@example.com");
    await page.waitForURL(`${server.baseUrl}/`);
    await logoutButton(page).waitFor();
    await context.close();
  });
});
