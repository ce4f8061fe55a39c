// `npm run demo:platforms` and the demo's offer sources (db/seed/sources.ts): the
// script serves every fake platform on its ports and stops on SIGTERM; the seeded
// sources are disabled, carry the demo key only when a secrets key is given, and
// each syncs against its fake platform.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { seedDemoData } from "#db/seed/demo.ts";
import { DEMO_API_KEY, demoEndpoint, seedDemoSources } from "#db/seed/sources.ts";
import { createSecrets } from "#core/supply/secrets.ts";
import { createOfferSync } from "#core/supply/sync.ts";
import type { SourcePlatform } from "#contracts/supply.ts";
import { openTestDatabase } from "../helpers/database.ts";
import { SECRETS_KEY } from "./helpers.ts";

const root = path.resolve(import.meta.dirname, "..", "..");
const OFFERS = 40;
// Away from the default ports (4701…), which a developer's own demo may hold, and below the
// ports the system hands out to outgoing connections (32768 and up on Linux): with the suites
// running, one of those took a platform's port (EADDRINUSE).
const BASE_PORT = 20_000 + Math.floor(Math.random() * 12_000);

let child: ChildProcess;
let output = "";
/** Each platform's address, as the script printed it. */
const served = new Map<string, string>();

beforeAll(async () => {
  child = spawn(
    process.execPath,
    [path.join(root, "scripts", "demo-platforms.ts"), "--offers", String(OFFERS), "--base-port", String(BASE_PORT)],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"], timeout: 60_000, killSignal: "SIGKILL" },
  );
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      output += d.toString();
      if (output.includes("Ctrl-C stops the platforms.")) resolve();
    });
    child.once("exit", () => reject(new Error(`demo:platforms exited: ${output}`)));
  });
  for (const m of output.matchAll(/^ {2}(\w+) +(http:\/\/127\.0\.0\.1:\d+\S*)$/gm)) served.set(m[1], m[2]);
});
afterAll(() => {
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

describe("npm run demo:platforms", () => {
  it("serves each platform on its port; the Everflow fake answers with the demo key", async () => {
    expect(Object.fromEntries(served)).toEqual({
      everflow: `http://127.0.0.1:${BASE_PORT}`,
      tune: `http://127.0.0.1:${BASE_PORT + 1}`,
      cake: `http://127.0.0.1:${BASE_PORT + 2}`,
      affise: `http://127.0.0.1:${BASE_PORT + 3}`,
      feed: `http://127.0.0.1:${BASE_PORT + 4}/offers.csv`,
    });
    expect(output).toContain("npm run offers:sync -- --source <id>");
    const url = `${served.get("everflow")}/v1/affiliates/alloffers?page=1&page_size=10`;
    const answer = await fetch(url, { headers: { "X-Eflow-API-Key": DEMO_API_KEY } });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { offers: unknown[]; paging: { total_count: number } };
    expect(body.offers).toHaveLength(10);
    expect(body.paging.total_count).toBe(OFFERS);
    expect((await fetch(url, { headers: { "X-Eflow-API-Key": "wrong" } })).status).toBe(401);
  });

  it("seeds one disabled source per platform, with the key sealed only when a secrets key is given", async () => {
    const db = await openTestDatabase();
    try {
      await seedDemoData(db, { siteId: "main", networks: 6, offers: 0, trafficSources: 0, reviews: 0 });
      const secrets = createSecrets(Buffer.from(SECRETS_KEY, "hex"));
      expect(await seedDemoSources(db, { secrets })).toBe(5);
      const sources = await db.query<{
        id: number;
        platform: SourcePlatform;
        endpoint: string;
        enabled: boolean;
        credentials: Uint8Array | null;
      }>(sql`SELECT id, platform, endpoint, enabled, credentials FROM offer_sources ORDER BY id`);
      expect(sources.map((s) => [s.platform, s.endpoint, s.enabled])).toEqual([
        ["everflow", "http://127.0.0.1:4701", false],
        ["tune", "http://127.0.0.1:4702", false],
        ["cake", "http://127.0.0.1:4703", false],
        ["affise", "http://127.0.0.1:4704", false],
        ["feed", "http://127.0.0.1:4705/offers.csv", false],
      ]);
      for (const s of sources) {
        if (s.platform === "feed") expect(s.credentials).toBeNull();
        else expect(secrets.open(Buffer.from(s.credentials!))).toBe(DEMO_API_KEY);
      }

      // End to end: each source, pointed at this test's ports, syncs every offer of its fake platform.
      const sync = createOfferSync(db, { secrets, onCatalogueChanged: () => {}, log: { info() {}, warn() {} } });
      for (const s of sources) {
        await db.query(sql`UPDATE offer_sources SET endpoint = ${served.get(s.platform)!} WHERE id = ${s.id}`);
        const run = await sync.run(s.id);
        expect({ platform: s.platform, status: run.status, error: run.error, seen: run.seen }).toEqual({
          platform: s.platform,
          status: "succeeded",
          error: undefined,
          seen: OFFERS,
        });
        expect(run.new).toBeGreaterThan(0);
      }

      // Without a secrets key: no credentials at all.
      await db.query(sql`DELETE FROM offer_sources`);
      expect(await seedDemoSources(db, {})).toBe(5);
      const [{ sealed }] = await db.query<{ sealed: number }>(
        sql`SELECT count(*)::int AS sealed FROM offer_sources WHERE credentials IS NOT NULL`,
      );
      expect(sealed).toBe(0);
      expect(demoEndpoint("everflow")).toBe("http://127.0.0.1:4701");
    } finally {
      await db.dispose();
    }
  });

  it("stops on SIGTERM", async () => {
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    await expect(fetch(served.get("everflow")!)).rejects.toThrow();
  });
});
