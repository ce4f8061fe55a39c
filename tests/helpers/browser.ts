// Playwright on Debian's Chromium. Without a browser the browser tests are
// skipped loudly, unless E2E=required, which makes a missing browser a failure.
import fs from "node:fs";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
export const browserAvailable = fs.existsSync(CHROMIUM_PATH);

if (!browserAvailable) {
  const msg = `\n!!! Chromium not found at ${CHROMIUM_PATH}: browser tests are SKIPPED. Install it with \`apt-get install -y chromium\`.\n`;
  if (process.env.E2E === "required") throw new Error(msg + "E2E=required, so this is a failure.");
  console.warn(msg);
}

/**
 * With E2E_SCRIPT_DELAY_MS set, every script of every page arrives up to that many milliseconds
 * late, each by its own random share: a visitor on a slow phone or network, who types, picks and
 * taps before the page's script has started. A test that passes only with the script running at
 * once depends on a race that a busy CI machine loses now and then. Routing turns the browser's
 * HTTP cache off, so the tests of what it keeps (personal-pages.test.ts) fail in this mode.
 */
const SCRIPT_DELAY_MS = Number(process.env.E2E_SCRIPT_DELAY_MS) || 0;

export async function launchBrowser(): Promise<Browser> {
  const browser = await launch();
  if (!SCRIPT_DELAY_MS) return browser;
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await context.route(/\.js(\?|$)/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * SCRIPT_DELAY_MS));
      await route.fallback();
    });
    return context;
  };
  return browser;
}

function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  });
}

/**
 * Waits until the page's scripts have started it (`<html data-started>`). They are asked for
 * after the first paint, often after the load event that `page.goto` waits for, so a test that
 * needs the page's script (a hover menu, a button without a form) waits for this first.
 */
export const pageStarted = (page: Page) => page.locator("html[data-started]").waitFor({ state: "attached" });

/**
 * Holds back every script the context's pages ask for until `release` is called: what a visitor
 * does before the page has started (types, picks, rests the pointer) must survive its start.
 */
export async function holdScripts(context: BrowserContext): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await context.route(/\.js(\?|$)/, async (route) => {
    await released;
    await route.fallback();
  });
  return release;
}
