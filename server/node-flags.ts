// The Node.js flags the server runs with, read from `npm start` (package.json), the one
// place they are set, so that the benchmark and the Lighthouse audit start the server
// exactly as production does (docs/decisions/0044-a-smaller-young-generation.md).
import fs from "node:fs";
import path from "node:path";

const START = /\bnode((?:\s+--[\w-]+(?:=\S+)?)*)\s+server\/main\.ts\b/;

/** The flags between `node` and `server/main.ts` in a start script; throws when it names no such command. */
export function nodeFlagsOf(startScript: string): string[] {
  const match = START.exec(startScript);
  if (!match) throw new Error(`the start script does not run "node … server/main.ts": ${startScript}`);
  return match[1].split(/\s+/).filter(Boolean);
}

/** The flags `npm start` gives the server. */
export function serverNodeFlags(root = path.resolve(import.meta.dirname, "..")): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: { start: string } };
  return nodeFlagsOf(pkg.scripts.start);
}
