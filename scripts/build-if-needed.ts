// `npm start` and every test run (vitest's global setup) build the app only when
// the build is missing or older than a source it is made from, so a fresh clone
// works with one command and a test never runs against a stale bundle. One build
// at a time per machine: the check and the build run under a lock file (flock).
import { execSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const output = path.join(root, "build", "server", "index.js");
/** Everything the bundles are made from (package.json: its `imports` map resolves `#app/…`). */
const SOURCES = [
  "app",
  "contracts",
  "core",
  "public",
  "vite.config.ts",
  "react-router.config.ts",
  "package.json",
  "package-lock.json",
];
const LOCK = path.join(os.tmpdir(), "offeratlas-build.lock");
const HOLDING = "OFFERATLAS_BUILD_LOCK_HELD";

function newest(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(p).map((f) => newest(path.join(p, f))));
}

function buildIfStale() {
  const built = fs.existsSync(output) ? fs.statSync(output).mtimeMs : 0;
  if (built === 0 || SOURCES.some((s) => newest(path.join(root, s)) > built)) {
    console.log("[offeratlas] building the app…");
    // Always React's production build: under vitest NODE_ENV is "test", which made Vite bundle
    // React's development build (twice the size), and `npm start` would then serve that bundle.
    execSync("npx react-router build", {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, NODE_ENV: "production" },
    });
  }
}

const flock = !process.env[HOLDING] && spawnSync("flock", ["--version"], { stdio: "ignore" }).status === 0;
if (flock) {
  // Runs this script again while holding the lock; another build in progress is waited for.
  const run = spawnSync("flock", [LOCK, process.execPath, import.meta.filename], {
    stdio: "inherit",
    env: { ...process.env, [HOLDING]: "1" },
  });
  process.exitCode = run.status ?? 1;
} else {
  buildIfStale();
}
