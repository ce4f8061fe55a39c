// `npm start` and `npm test` build the app only when the build is missing or
// older than a source file, so a fresh clone works with one command.
import { execSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const output = path.join(root, "build", "server", "index.js");
const SOURCES = ["app", "contracts", "core", "public", "vite.config.ts", "react-router.config.ts", "package-lock.json"];

function newest(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(p).map((f) => newest(path.join(p, f))));
}

const built = fs.existsSync(output) ? fs.statSync(output).mtimeMs : 0;
if (built === 0 || SOURCES.some((s) => newest(path.join(root, s)) > built)) {
  console.log("[offeratlas] building the app…");
  execSync("npx react-router build", { cwd: root, stdio: "inherit" });
}
