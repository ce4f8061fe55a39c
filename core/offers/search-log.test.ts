// The search log is written in batches, never while a search waits.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql, type Queryable, type SQL } from "#db/client.ts";
import { openTestDatabase } from "../../tests/helpers/database.ts";
import { createSiteService } from "../sites/sites.ts";
import { createSearchLog } from "./search-log.ts";

let db: Awaited<ReturnType<typeof openTestDatabase>>;
beforeAll(async () => {
  db = await openTestDatabase();
  await createSiteService(db, "offeratlas").ensureDefault();
});
afterAll(() => db?.dispose());

const logged = async () =>
  db.query<{ query: string; result_count: number }>(sql`SELECT query, result_count FROM search_log ORDER BY id`);

describe("search log", () => {
  it("keeps searches until the flush, then writes them, normalised, in one statement", async () => {
    const inserts: SQL[] = [];
    const counting: Queryable = { query: (s) => (inserts.push(s), db.query(s)) } as Queryable;
    const log = createSearchLog(counting);
    log.record({ siteId: "offeratlas", query: "  Keto ", resultCount: 12 });
    log.record({ siteId: "offeratlas", query: "casino", resultCount: 40, searcher: "abc" });
    log.record({ siteId: "offeratlas", query: "   ", resultCount: 0 }); // nothing searched: not logged
    expect(await logged()).toEqual([]);
    await log.flush();
    expect(await logged()).toEqual([
      { query: "keto", result_count: 12 },
      { query: "casino", result_count: 40 },
    ]);
    expect(inserts).toHaveLength(1);
    await log.flush(); // nothing pending: no statement
    expect(inserts).toHaveLength(1);
  });

  it("keeps what the database refused for the next flush", async () => {
    await db.query(sql`DELETE FROM search_log`);
    let refuse = true;
    const flaky: Queryable = {
      query: (s) => (refuse ? Promise.reject(new Error("database away")) : db.query(s)),
    } as Queryable;
    const log = createSearchLog(flaky);
    log.record({ siteId: "offeratlas", query: "solar", resultCount: 3 });
    await expect(log.flush()).rejects.toThrow("database away");
    refuse = false;
    log.record({ siteId: "offeratlas", query: "vpn", resultCount: 5 });
    await log.flush();
    expect(await logged()).toEqual([
      { query: "solar", result_count: 3 },
      { query: "vpn", result_count: 5 },
    ]);
  });

  it("never lets one bad entry poison a batch: unstorable text is skipped, a refused row is dropped alone", async () => {
    await db.query(sql`DELETE FROM search_log`);
    const log = createSearchLog(db);
    log.record({ siteId: "offeratlas", query: "nul\u0000byte", resultCount: 1 });
    log.record({ siteId: "offeratlas", query: "lone \uD800 surrogate", resultCount: 1 });
    log.record({ siteId: "offeratlas", query: "keto", resultCount: 2 });
    log.record({ siteId: "no-such-site", query: "orphan", resultCount: 1 }); // violates the site foreign key
    log.record({ siteId: "offeratlas", query: "vpn", resultCount: 3 });
    await log.flush();
    expect(await logged()).toEqual([
      { query: "keto", result_count: 2 },
      { query: "vpn", result_count: 3 },
    ]);
    log.record({ siteId: "offeratlas", query: "solar", resultCount: 4 });
    await log.flush(); // later batches are not held back by the refused one
    expect((await logged()).map((r) => r.query)).toEqual(["keto", "vpn", "solar"]);
  });
});
