// Vitest global setup: page and browser tests import build/, so the app is built
// first whenever a source is newer than the build (`npm test` and a single
// `npx vitest run <file>` alike).
import { execFileSync } from "node:child_process";
import path from "node:path";

export default function buildIfNeeded() {
  execFileSync(process.execPath, [path.join(import.meta.dirname, "..", "..", "scripts", "build-if-needed.ts")], {
    stdio: "inherit",
  });
}
