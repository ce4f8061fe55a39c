// `npm run offers:sync -- --source <id>`: runs one sync against DATA_DIR, prints
// its counts, and exits non-zero when the run failed; run as the README says,
// against a throw-away embedded database and the fake Everflow server.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, sql } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { seedDemoData } from "#db/seed/demo.ts";
import { createSecrets } from "#core/supply/secrets.ts";
import { startFakeEverflow, type FakeEverflow } from "../fakes/everflow.ts";
import { addSource, API_KEY, SECRETS_KEY } from "./helpers.ts";

const root = path.resolve(import.meta.dirname, "..", "..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "offeratlas-offers-sync-"));
let server: FakeEverflow;
let sourceId: number;

beforeAll(async () => {
  server = await startFakeEverflow({ apiKey: API_KEY, count: 120 });
  const db = await openDatabase({ dataDir: path.join(dataDir, "pglite") });
  try {
    await migrate(db);
    await seedDemoData(db, { siteId: "main", networks: 1, offers: 0, trafficSources: 0, reviews: 0 });
    ({ sourceId } = await addSource(db, createSecrets(Buffer.from(SECRETS_KEY, "hex")), { url: server.url }));
  } finally {
    await db.close();
  }
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

// Asynchronous: the fake server answers from this process while the command runs.
async function run(...args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [path.join(root, "scripts", "offers-sync.ts"), ...args],
      {
        cwd: root,
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          DATABASE_URL: "",
          SECRETS_KEY,
          NODE_ENV: "test",
          LOG_LEVEL: "silent",
        },
        timeout: 60_000,
      },
    );
    return { status: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { status: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("npm run offers:sync", () => {
  it("syncs the source and prints its counts; a second run finds everything unchanged", async () => {
    const first = await run("--source", String(sourceId));
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(
      new RegExp(
        `^source ${sourceId} run \\d+ succeeded: seen 120, new 120, changed 0, unchanged 0, retired 0, skipped 0$`,
        "m",
      ),
    );
    const second = await run("--source", String(sourceId));
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toContain("seen 120, new 0, changed 0, unchanged 120, retired 0, skipped 0");
  });

  it("exits non-zero with the reason when the run fails, an unknown source, or no source", async () => {
    server.state.apiKey = "rotated";
    const failed = await run("--source", String(sourceId));
    server.state.apiKey = API_KEY;
    expect(failed.status).toBe(1);
    expect(failed.stdout).toContain("failed: seen 0, new 0");
    expect(failed.stderr).toContain("Everflow refused the API key (401)");

    const unknown = await run("--source", "999999");
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain("Offer source not found");

    const usage = await run();
    expect(usage.status).toBe(1);
    expect(usage.stderr).toContain("Usage: npm run offers:sync -- --source <id>");

    const db = await openDatabase({ dataDir: path.join(dataDir, "pglite") });
    try {
      const [source] = await db.query(sql`SELECT state FROM offer_sources WHERE id = ${sourceId}`);
      expect(source).toEqual({ state: "failing" });
    } finally {
      await db.close();
    }
  });
});
