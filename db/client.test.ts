// Kept plans (keepPlan): on PostgreSQL a marked statement is prepared once per connection and
// answers each call with that call's values; an unmarked one is not kept. A transaction's opening
// statement (withBegin) travels with BEGIN and is still part of the transaction.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import pg from "pg";
import { keepPlan, sql, withBegin } from "#db/client.ts";
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase } from "../tests/helpers/database.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(() => db?.dispose());

const plusOne = (n: number) => keepPlan(sql`SELECT ${n}::int + 1 AS n`);

describe("a statement whose plan is kept", () => {
  it("answers every call with its own values", async () => {
    const answers = await db.transaction(async (tx) => {
      const out: number[] = [];
      for (const n of [1, 5, 41, 1, 9, 13, 20]) out.push((await tx.query<{ n: number }>(plusOne(n)))[0].n);
      return out;
    });
    expect(answers).toEqual([2, 6, 42, 2, 10, 14, 21]);
  });

  it.skipIf(!TEST_DATABASE_URL)(
    "is prepared once on the connection, and an unmarked one is not (PostgreSQL)",
    async () => {
      const prepared = await db.transaction(async (tx) => {
        await tx.query(plusOne(2));
        await tx.query(plusOne(3));
        await tx.query(sql`SELECT ${4}::int + 2 AS n`);
        return tx.query<{ statement: string }>(sql`SELECT statement FROM pg_prepared_statements ORDER BY statement`);
      });
      expect(prepared.map((p) => p.statement)).toEqual(["SELECT $1::int + 1 AS n"]);
    },
  );
});

describe("a transaction's opening statement (withBegin)", () => {
  const opening = () => withBegin(sql`SELECT set_config('application_name', 'opening', true) AS name`);
  const current = async () =>
    (await db.query<{ name: string }>(sql`SELECT current_setting('application_name') AS name`))[0].name;

  it("answers, sets what it sets for the transaction only, and rolls back with it", async () => {
    await db.query(sql`CREATE TABLE IF NOT EXISTS opening_test (n int)`);
    const inside = await db.transaction(async (tx) => {
      const [row] = await tx.query<{ name: string }>(opening());
      const [now] = await tx.query<{ name: string }>(sql`SELECT current_setting('application_name') AS name`);
      return [row.name, now.name];
    });
    expect(inside).toEqual(["opening", "opening"]);
    expect(await current()).not.toBe("opening");
    await expect(
      db.transaction(async (tx) => {
        await tx.query(opening());
        await tx.query(sql`INSERT INTO opening_test (n) VALUES (${1})`);
        throw new Error("undo");
      }),
    ).rejects.toThrow("undo");
    expect(await db.query(sql`SELECT n FROM opening_test`)).toEqual([]);
  });

  it.skipIf(!TEST_DATABASE_URL)(
    "is sent in the same round trip as BEGIN; any other first statement after it",
    async () => {
      const sent = vi.spyOn(pg.Client.prototype, "query");
      const texts = () =>
        sent.mock.calls
          .map(([q]) => (typeof q === "string" ? q : (q as { text: string }).text))
          .map((t) => t.slice(0, 60));
      try {
        await db.transaction(async (tx) => tx.query(opening()));
        expect(texts()).toEqual([expect.stringMatching(/^BEGIN; SELECT set_config\('application_name'/), "COMMIT"]);
        sent.mockClear();
        await db.transaction(async (tx) => tx.query(sql`SELECT ${1}::int AS n`));
        expect(texts()).toEqual(["BEGIN", "SELECT $1::int AS n", "COMMIT"]);
      } finally {
        sent.mockRestore();
      }
    },
  );
});
