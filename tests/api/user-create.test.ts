// `npm run user:create`: creates an account with the roles asked for, adds roles
// to an existing one, and refuses a bad address; run as the README says, against
// a throw-away embedded database.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, sql } from "#db/client.ts";

const root = path.resolve(import.meta.dirname, "..", "..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "offeratlas-user-create-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const run = (...args: string[]) =>
  spawnSync(process.execPath, [path.join(root, "scripts", "user-create.ts"), ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", NODE_ENV: "test", LOG_LEVEL: "silent" },
    encoding: "utf8",
    timeout: 60_000,
  });

async function scopeOf(email: string) {
  const db = await openDatabase({ dataDir: path.join(dataDir, "pglite") });
  try {
    const [row] = await db.query<{ scope: string[] }>(sql`SELECT scope FROM users WHERE email_key = ${email}`);
    return row?.scope;
  } finally {
    await db.close();
  }
}

describe("npm run user:create", () => {
  it("creates a moderator, then adds the admin role to the same account", async () => {
    const created = run("--email", "mod@example.com", "--moderator");
    expect(created.status, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/user #\d+ mod@example\.com \(moderator\), password: \S{12,}/);
    expect(await scopeOf("mod@example.com")).toEqual(["moderator"]);

    const promoted = run("--email", "mod@example.com", "--admin");
    expect(promoted.status, promoted.stderr).toBe(0);
    expect((await scopeOf("mod@example.com"))?.sort()).toEqual(["admin", "moderator"]);
  });

  it("creates a plain account without roles, and refuses a bad address", async () => {
    const plain = run("--email", "reader@example.com", "--password", "Plenty-of-Entropy-2009!");
    expect(plain.status, plain.stderr).toBe(0);
    expect(plain.stdout.trim()).toMatch(/^user #\d+ reader@example\.com$/);
    expect(await scopeOf("reader@example.com")).toEqual([]);

    const bad = run("--email", "not-an-address");
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain("Usage: npm run user:create");
  });
});
