// Playwright on Debian's Chromium. Without a browser the browser tests are
// skipped loudly, unless E2E=required, which makes a missing browser a failure.
import fs from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";

const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
export const browserAvailable = fs.existsSync(CHROMIUM_PATH);

if (!browserAvailable) {
  const msg = `\n!!! Chromium not found at ${CHROMIUM_PATH}: browser tests are SKIPPED. Install it with \`apt-get install -y chromium\`.\n`;
  if (process.env.E2E === "required") throw new Error(msg + "E2E=required, so this is a failure.");
  console.warn(msg);
}

export async function launchBrowser(): Promise<Browser> {
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
