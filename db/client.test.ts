// Kept plans (keepPlan): on PostgreSQL a marked statement is prepared once per connection and
// answers each call with that call's values; an unmarked one is not kept.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keepPlan, sql } from "#db/client.ts";
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
