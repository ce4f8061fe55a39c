// node bench/search-explain.ts [--url postgres://…/copy] [--unique 100] [--top 10] [--plans 3] [--json file]
//
// Where a cold search's work goes, per shape: runs every search of the mix and
// `unique` unique searches (bench/mix.ts) on one connection against a seeded
// database (a copy: only read), with the search cache off, and lists them worst
// first with their time, their statements (round trips, BEGIN and COMMIT
// included) and the shared buffers their statements touch (EXPLAIN (ANALYZE,
// BUFFERS) of each, under the planner settings the search had made before it).
// Buffers do not depend on the machine's load; milliseconds do. `--plans N`
// prints the plan of the costliest statement of the N worst searches.
import fs from "node:fs";
import { parseArgs } from "node:util";
import { PgDialect } from "drizzle-orm/pg-core";
import { openDatabase, sentWithBegin, sql, type Database, type SQL } from "#db/client.ts";
import { createOfferService } from "#core/offers/offers.ts";
import { parseOfferSearchPayload, type OfferSearchInput } from "#contracts/offers.ts";
import { SEARCH_MIX, uniqueSearches } from "./mix.ts";

const { values } = parseArgs({
  options: {
    url: { type: "string", default: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/seed1m" },
    unique: { type: "string", default: "100" },
    top: { type: "string", default: "15" },
    plans: { type: "string", default: "0" },
    json: { type: "string" },
    /** Only these searches (JSON payloads), each statement's plan printed. */
    search: { type: "string", multiple: true },
  },
});
if (!["127.0.0.1", "localhost"].includes(new URL(values.url).hostname))
  throw new Error("Explains on a local PostgreSQL only (127.0.0.1)");

type Statement = { text: string; buffers: number; ms: number; planMs: number; plan: string[] };
type Shape = {
  search: OfferSearchInput;
  ms: number;
  statements: number;
  buffers: number;
  worst?: Statement;
  /** Each statement's part (with its access), buffers and EXPLAIN ms, in order. */
  parts: { part: string; buffers: number; ms: number }[];
};

/** What part of a search a statement is, for the totals by part. */
function partOf(text: string): string {
  if (text.includes("WITH head")) return text.includes("o.sponsored") ? "sponsored pins" : "matches (head)";
  if (text.includes("FROM networks n CROSS JOIN LATERAL")) return "network order";
  if (/AS n FROM \( ?SELECT 1 FROM offers/.test(text)) return "capped count";
  if (text.includes("WITH m AS MATERIALIZED")) return "count and page";
  if (text.includes("offer_name_words")) return "close spellings";
  if (text.includes("WITH ORDINALITY AS t(spellings, n)")) return "words known";
  if (text.includes("FROM offer_document_words")) return "prefix words";
  if (text.includes('AS "networkSlug"')) return "offer rows";
  return text.slice(0, 40);
}
/** How a statement that collects matches reads them, from its plan: a walk, or through the text index. */
function accessOf(plan: string[]): string {
  const text = plan.join("\n");
  if (/Index Only Scan using offers_\w*popularity_idx|Index Only Scan using offers_sponsored_idx/.test(text))
    return "walk, index only";
  if (/Index Scan using offers_\w+_idx on offers/.test(text)) return "walk, table";
  if (text.includes("order_bands @>")) return "text index, a band";
  if (text.includes("BitmapAnd")) return "text index, a window";
  return "text index, all";
}
const parts = new Map<string, { statements: number; buffers: number; ms: number; planMs: number }>();

const dialect = new PgDialect();
const isSettings = (s: SQL) => /set_config/.test(dialect.sqlToQuery(s).sql);

/** The database, with every statement a transaction runs written down. */
function recording(db: Database, recorded: SQL[]): Database {
  return {
    ...db,
    transaction: (work) => db.transaction((tx) => work({ ...tx, query: (s) => (recorded.push(s), tx.query(s)) })),
  };
}

/** Shared buffers (hit and read) on a "Buffers:" line of a text plan. */
function buffersOn(line: string | undefined): number {
  const hit = /shared hit=(\d+)/.exec(line ?? "");
  const read = /shared (?:hit=\d+ )?read=(\d+)/.exec(line ?? "");
  return Number(hit?.[1] ?? 0) + Number(read?.[1] ?? 0);
}

async function explain(db: Database, before: SQL[], statement: SQL): Promise<Statement> {
  const plan = await db.transaction(async (tx) => {
    for (const settings of before.filter(isSettings)) await tx.query(settings);
    const rows = await tx.query<{ "QUERY PLAN": string }>(sql`EXPLAIN (ANALYZE, BUFFERS) ${statement}`);
    return rows.map((r) => r["QUERY PLAN"]);
  });
  // The top node's buffers hold its children's; planning has its own line.
  const firstChild = plan.findIndex((l) => l.includes("->"));
  const top = plan.slice(0, firstChild < 0 ? plan.length : firstChild).find((l) => /^\s*Buffers:/.test(l));
  const planning = plan[plan.findIndex((l) => /^Planning:/.test(l)) + 1];
  // "Planning Time: …", not the "Planning:" line of its buffers.
  const time = (label: string) =>
    Number(
      new RegExp(`^${label} Time: ([\\d.]+)`).exec(plan.find((l) => l.startsWith(`${label} Time:`)) ?? "")?.[1] ?? 0,
    );
  return {
    text: dialect.sqlToQuery(statement).sql.replace(/\s+/g, " ").trim(),
    buffers: buffersOn(top) + (plan.some((l) => /^Planning:/.test(l)) ? buffersOn(planning) : 0),
    ms: time("Planning") + time("Execution"),
    planMs: time("Planning"),
    plan,
  };
}

const db = await openDatabase({ url: values.url, poolSize: 2 });
const recorded: SQL[] = [];
const offers = createOfferService(recording(db, recorded), { ipHashSalt: "", searchCacheTtlMs: 0 });
const only = values.search?.map((s) => JSON.parse(s) as OfferSearchInput);
const searches = only ?? [...SEARCH_MIX, ...uniqueSearches(Number(values.unique))];
// Once each first: window edges are read once per order, plans and buffers settle.
for (const search of searches) await offers.search(parseOfferSearchPayload(search));

const shapes: Shape[] = [];
for (const search of searches) {
  recorded.length = 0;
  const started = performance.now();
  await offers.search(parseOfferSearchPayload(search));
  const ms = performance.now() - started;
  const statements = [...recorded];
  // BEGIN (unless the first statement goes with it, on PostgreSQL) and COMMIT are round trips too.
  const shape: Shape = {
    search,
    ms,
    statements: statements.length + (sentWithBegin(statements[0]) ? 1 : 2),
    buffers: 0,
    parts: [],
  };
  for (const [i, statement] of statements.entries()) {
    if (isSettings(statement)) continue;
    const s = await explain(db, statements.slice(0, i), statement);
    if (only) console.log(`\n== ${JSON.stringify(search)}: ${s.buffers} buffers\n${s.text}\n${s.plan.join("\n")}`);
    shape.buffers += s.buffers;
    const name = partOf(s.text);
    const named = ["matches (head)", "sponsored pins", "capped count", "count and page"].includes(name)
      ? `${name}: ${accessOf(s.plan)}`
      : name;
    shape.parts.push({ part: named, buffers: s.buffers, ms: Math.round(s.ms * 100) / 100 });
    const part = parts.get(named) ?? { statements: 0, buffers: 0, ms: 0, planMs: 0 };
    parts.set(named, {
      statements: part.statements + 1,
      buffers: part.buffers + s.buffers,
      ms: part.ms + s.ms,
      planMs: part.planMs + s.planMs,
    });
    if (!shape.worst || s.buffers > shape.worst.buffers) shape.worst = s;
  }
  shapes.push(shape);
}
await db.close();

shapes.sort((a, b) => b.buffers - a.buffers);
const ms = shapes.map((s) => s.ms).sort((a, b) => a - b);
const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(1);
const buffers = shapes.map((s) => s.buffers);
console.log(
  `${shapes.length} searches on one connection: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms; ` +
    `buffers median ${buffers[Math.floor(buffers.length / 2)]}, total ${buffers.reduce((a, b) => a + b, 0)}; ` +
    `statements per search ${Math.min(...shapes.map((s) => s.statements))}–${Math.max(...shapes.map((s) => s.statements))}, ` +
    `total ${shapes.reduce((n, s) => n + s.statements, 0)}\n`,
);
console.log("By part: statements, buffers, EXPLAIN ms (all searches), of which planning");
for (const [part, t] of [...parts].sort((a, b) => b[1].buffers - a[1].buffers))
  console.log(
    `${part.padEnd(18)} ${String(t.statements).padStart(5)} ${String(t.buffers).padStart(9)} ${t.ms.toFixed(0).padStart(7)} ${t.planMs.toFixed(0).padStart(7)}`,
  );
console.log("\nbuffers       ms  stmts  search");
for (const s of shapes.slice(0, Number(values.top))) {
  console.log(
    `${String(s.buffers).padStart(7)} ${s.ms.toFixed(1).padStart(8)} ${String(s.statements).padStart(6)}  ${JSON.stringify(s.search)}`,
  );
}
for (const s of shapes.slice(0, Number(values.plans))) {
  console.log(
    `\n== ${JSON.stringify(s.search)}: ${s.worst?.buffers} buffers, ${s.worst?.ms.toFixed(1)} ms\n${s.worst?.text}`,
  );
  console.log(s.worst?.plan.join("\n"));
}
if (values.json) {
  const slim = shapes.map(({ worst, ...s }) => ({
    ...s,
    worst: worst && { buffers: worst.buffers, text: worst.text },
  }));
  fs.writeFileSync(values.json, JSON.stringify(slim, null, 2));
}
