// `npm run offers:source` (issue #13's shell contract): `add` prints the new
// source's id on its last line, `list` shows it with its last run, bad arguments
// exit 2 with a message on stderr, a key without SECRETS_KEY exits 1; run as
// the README says, against a throw-away embedded database (DATA_DIR), or with
// TEST_DATABASE_URL against PostgreSQL (DATABASE_URL, a private schema).
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, sql } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { NO_SECRETS_KEY } from "#core/supply/secrets.ts";
import { TEST_DATABASE_URL } from "../helpers/database.ts";

const root = path.resolve(import.meta.dirname, "..", "..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "offeratlas-offers-source-"));
const SECRETS_KEY = "3c".repeat(32);
const API_KEY = "cli-secret-Hq7mV2pL0x";
let networkId: number;
/** On PostgreSQL, the schema the CLI works in (its DATABASE_URL sets the search path). */
const schema = TEST_DATABASE_URL ? `t_cli_${crypto.randomBytes(5).toString("hex")}` : undefined;
const databaseUrl = schema
  ? `${TEST_DATABASE_URL}${TEST_DATABASE_URL!.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema},public`)}`
  : "";

const run = (args: string[], env: Record<string, string> = { SECRETS_KEY }) =>
  spawnSync(process.execPath, [path.join(root, "scripts", "offers-source.ts"), ...args], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      ...env,
    },
    encoding: "utf8",
    timeout: 60_000,
  });

async function withDb<T>(work: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>) {
  const db = await openDatabase(
    schema ? { url: TEST_DATABASE_URL, schema, poolSize: 1 } : { dataDir: path.join(dataDir, "pglite") },
  );
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

beforeAll(() =>
  withDb(async (db) => {
    await migrate(db);
    [{ id: networkId }] = await db.query<{ id: number }>(sql`
      INSERT INTO networks (name, slug) VALUES ('Shell Network', 'shell-network') RETURNING id`);
  }),
);
afterAll(async () => {
  if (schema) {
    const db = await openDatabase({ url: TEST_DATABASE_URL, poolSize: 1 });
    await db.execScript(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await db.close();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

// Each case starts the command two or three times, a Node process opening the database each time:
// with both test passes running at once (.ci/run), that went past the default 30 s.
describe("npm run offers:source", { timeout: 90_000 }, () => {
  it("adds a source, printing its id on the last line, and lists it with its last run", async () => {
    const added = run([
      "add",
      "--network",
      String(networkId),
      "--platform",
      "everflow",
      "--url",
      "https://api.eflow.team",
      "--api-key",
      API_KEY,
      "--every",
      "30",
    ]);
    expect(added.status, added.stderr).toBe(0);
    expect(added.stdout + added.stderr).not.toContain(API_KEY);
    const lines = added.stdout.trim().split("\n");
    expect(lines.at(-1)).toMatch(/^\d+$/);
    const id = Number(lines.at(-1));
    const row = await withDb(async (db) => {
      const [found] = await db.query<{ network_id: number; platform: string; every_minutes: number; hex: string }>(
        sql`SELECT network_id, platform, every_minutes, encode(credentials, 'hex') AS hex FROM offer_sources WHERE id = ${id}`,
      );
      await db.query(sql`
        INSERT INTO offer_sync_runs (source_id, status, finished_at, seen, new, changed, unchanged, retired, skipped)
        VALUES (${id}, 'succeeded', now(), 42, 40, 0, 2, 0, 1)`);
      return found;
    });
    expect(row).toMatchObject({ network_id: networkId, platform: "everflow", every_minutes: 30 });
    // With DATABASE_URL the embedded database is never opened.
    expect(fs.existsSync(path.join(dataDir, "pglite"))).toBe(!schema);
    expect(Buffer.from(row.hex, "hex").toString("latin1")).not.toContain(API_KEY);

    const feed = run([
      "add",
      "--network",
      String(networkId),
      "--platform",
      "feed",
      "--url",
      `file://${dataDir}/feed.csv`,
    ]);
    expect(feed.status, feed.stderr).toBe(0);
    const feedId = Number(feed.stdout.trim().split("\n").at(-1));
    expect(feedId).toBeGreaterThan(id);

    const listed = run(["list"]);
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).not.toContain(API_KEY);
    const everflow = listed.stdout.split("\n").find((line) => line.startsWith(`#${id} `));
    expect(everflow).toContain("Shell Network");
    expect(everflow).toContain("every 30 min");
    expect(everflow).toContain("with API key");
    expect(everflow).toMatch(/last run succeeded .*seen 42, new 40, changed 0, unchanged 2, retired 0, skipped 1/);
    const file = listed.stdout.split("\n").find((line) => line.startsWith(`#${feedId} `));
    expect(file).toContain(`file://${dataDir}/feed.csv`);
    expect(file).toContain("never run");
    expect(listed.stdout.trim().split("\n").at(-1)).toBe("2 sources");
  });

  it("keeps a CAKE source's affiliate id and other settings given on the command line", async () => {
    const args = ["add", "--network", String(networkId), "--platform", "cake", "--url", "https://cake.example.com"];
    const added = run([...args, "--api-key", API_KEY, "--affiliate-id", "4021", "--setting", "page_size=250"]);
    expect(added.status, added.stderr).toBe(0);
    const id = Number(added.stdout.trim().split("\n").at(-1));
    const settings = await withDb(async (db) => {
      const [row] = await db.query<{ settings: unknown }>(sql`SELECT settings FROM offer_sources WHERE id = ${id}`);
      return row.settings;
    });
    expect(settings).toEqual({ affiliate_id: "4021", page_size: "250" });

    const malformed = run([...args, "--api-key", API_KEY, "--setting", "page_size"]);
    expect(malformed.status).toBe(2);
    expect(malformed.stderr).toContain("--setting must be <name>=<value>, not page_size");
  });

  // One test per case: each spawn boots Node (and, past the argument checks, the database) on its own budget.
  it.each<[string[], string]>([
    [[], "Name a command."],
    [["remove"], "Unknown command: remove"],
    [["add", "--platform", "everflow", "--url", "https://api.eflow.team"], "--network is required"],
    [["add", "--network", "1", "--platform", "everflow", "--url", "https://x.io", "--colour", "red"], "--colour"],
    [["list", "--api-key", "x"], "--api-key does not apply to list"],
    [
      ["add", "--network", "NETWORK", "--platform", "impact", "--url", "https://x.io"],
      "platform must be one of everflow, tune, cake, affise, feed",
    ],
    [
      ["add", "--network", "NETWORK", "--platform", "tune", "--url", "https://x.io", "--every", "2"],
      "everyMinutes must be between 5 and 10080",
    ],
    [["add", "--network", "987654", "--platform", "tune", "--url", "https://x.io"], "networkId must be the id"],
    [
      ["add", "--network", "NETWORK", "--platform", "feed", "--url", "file:///etc/passwd"],
      "a file inside the data directory",
    ],
  ])("refuses %j with exit code 2 and a message on stderr", (args, message) => {
    const res = run(args.map((arg) => (arg === "NETWORK" ? String(networkId) : arg)));
    expect(res.status).toBe(2);
    expect(res.stderr).toContain(message);
    expect(res.stderr).toContain("Usage:");
    expect(res.stdout).toBe("");
  });

  it("refuses a bad value before it reaches for the database", () => {
    const away = { SECRETS_KEY, DATABASE_URL: "postgres://127.0.0.1:1/away", DATA_DIR: path.join(dataDir, "none") };
    const res = run(["add", "--network", "1", "--platform", "tune", "--url", "ftp://x.io"], away);
    expect(res.status).toBe(2);
    expect(res.stderr).toContain("endpoint must be an http(s) address");
    expect(fs.existsSync(away.DATA_DIR)).toBe(false);
  });

  it("exits 1 without SECRETS_KEY when a key is given, and stores nothing", async () => {
    const before = await withDb((db) => db.query(sql`SELECT id FROM offer_sources`));
    const res = run(
      [
        "add",
        "--network",
        String(networkId),
        "--platform",
        "cake",
        "--url",
        "https://cake.example.com",
        "--api-key",
        "k",
      ],
      { SECRETS_KEY: "" },
    );
    expect(res.status).toBe(1);
    expect(res.stderr).toContain(NO_SECRETS_KEY);
    expect(await withDb((db) => db.query(sql`SELECT id FROM offer_sources`))).toEqual(before);
  });
});
