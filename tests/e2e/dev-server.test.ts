// `npm run dev`: the dev server renders and hydrates with React itself (docs/decisions/0035), not
// with the browser build's Preact root, so what only that root does (hydration in turns,
// docs/decisions/0054) must leave React's hydration whole: the page's header, main and footer
// hydrate, with no error.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../helpers/browser.ts";

const root = path.resolve(import.meta.dirname, "../..");

/** Starts `node server/main.ts --dev` on a fresh embedded database; resolves with its address once it listens. */
function startDevServer(dataDir: string): Promise<{ child: ChildProcess; baseUrl: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["server/main.ts", "--dev"], {
      cwd: root,
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, NODE_ENV: "development" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const timer = setTimeout(() => reject(new Error(`dev server did not start:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (listening) {
        clearTimeout(timer);
        resolve({ child, baseUrl: listening[1] });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`dev server exited (${code}):\n${output}`));
    });
  });
}

describe.skipIf(!browserAvailable)("the dev server, in Chromium", () => {
  let dev: Awaited<ReturnType<typeof startDevServer>>;
  let browser: Browser;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "oa-dev-"));

  beforeAll(async () => {
    dev = await startDevServer(dataDir);
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    if (dev?.child.exitCode === null) {
      const exited = new Promise((resolve) => dev.child.once("exit", resolve));
      dev.child.kill("SIGTERM");
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("hydrates the page with React: the header's login panel opens on hover, no script error", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // Vite optimises the page's dependencies on the first visit and may answer it with 504
    // ("Outdated Optimize Dep") while it does: the first load warms it, the second is measured.
    await page.goto(`${dev.baseUrl}/`, { waitUntil: "networkidle", timeout: 60_000 });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await page.goto(`${dev.baseUrl}/`, { waitUntil: "networkidle", timeout: 60_000 });
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Login", exact: true }).hover();
    await page.getByTestId("login-dropdown").waitFor({ state: "visible", timeout: 10_000 });
    await expect(page.locator("#main h1").count()).resolves.toBeGreaterThan(0);
    await expect(page.locator("footer").count()).resolves.toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
