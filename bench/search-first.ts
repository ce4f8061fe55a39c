// node bench/search-first.ts [--url postgres://…/seed1m] [--count 1100] [--passes 2] [--top 20]
//
// The searches of bench:search's one-connection scenario (the mix, then unique searches of seed 2),
// in its order, each timed on its first run, as that scenario meets them: on a service that has seen
// only the mix, so every new word pays its first look-ups (known words, statistics, close spellings)
// along with its scans. Prints the distribution, the slowest searches with each statement's time,
// and the time by part for each pass; a second pass runs the same searches again on the same service,
// which tells what the first look-ups cost from what the scans do. Statements are timed at the
// client (round trip included); the search cache is off. The explain tool (search-explain.ts) runs
// every search once before it measures: it shows buffers and plans, not first runs.
import { parseArgs } from "node:util";
import { PgDialect } from "drizzle-orm/pg-core";
import { openDatabase, type Database, type SQL } from "#db/client.ts";
import { createOfferService } from "#core/offers/offers.ts";
import { parseOfferSearchPayload, type OfferSearchInput } from "#contracts/offers.ts";
import { SEARCH_MIX, uniqueSearches } from "./mix.ts";

const { values } = parseArgs({
  options: {
    url: { type: "string", default: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/seed1m" },
    count: { type: "string", default: "1100" },
    passes: { type: "string", default: "1" },
    top: { type: "string", default: "20" },
  },
});
if (!["127.0.0.1", "localhost"].includes(new URL(values.url).hostname))
  throw new Error("Times searches on a local PostgreSQL only (127.0.0.1)");

type Statement = { text: string; ms: number };
type Run = { search: OfferSearchInput; ms: number; statements: Statement[] };

/** What part of a search a statement is, by its text. */
function partOf(text: string): string {
  if (text.includes("WITH ORDINALITY AS t(spellings, n)")) return "known words";
  if (text.includes("offer_name_words")) return "close spellings";
  if (/^SELECT \(+.*\)+::text AS query$/.test(text)) return "statistics of a text";
  if (text.includes("enable_seqscan")) return "opening";
  if (text.includes("enable_bitmapscan")) return "access switched";
  if (text.includes("WITH m AS MATERIALIZED")) return "count and page";
  if (text.includes("WITH head")) return "matches (head)";
  if (text.includes('AS "networkSlug"')) return "offer rows";
  return text.slice(0, 30);
}

const dialect = new PgDialect();
let statements: Statement[] = [];
/** The database, with every statement a transaction runs timed. */
function timing(db: Database): Database {
  return {
    ...db,
    transaction: (work) =>
      db.transaction((tx) =>
        work({
          ...tx,
          query: async <T>(s: SQL) => {
            const started = performance.now();
            const rows = await tx.query<T>(s);
            statements.push({
              text: dialect.sqlToQuery(s).sql.replace(/\s+/g, " ").trim(),
              ms: performance.now() - started,
            });
            return rows;
          },
        }),
      ),
  };
}

const db = await openDatabase({ url: values.url, poolSize: 1 });
const offers = createOfferService(timing(db), { ipHashSalt: "", searchCacheTtlMs: 0 });
// As the scenario's server: it has served the mix before (bench/search.ts warms up with it).
for (const search of SEARCH_MIX) await offers.search(parseOfferSearchPayload(search));
const searches = [...SEARCH_MIX, ...uniqueSearches(2000, 2)].slice(0, Number(values.count));
const passes: Run[][] = [];
for (let pass = 0; pass < Number(values.passes); pass++) {
  const runs: Run[] = [];
  for (const search of searches) {
    statements = [];
    const started = performance.now();
    await offers.search(parseOfferSearchPayload(search));
    runs.push({ search, ms: performance.now() - started, statements });
  }
  passes.push(runs);
}
await db.close();

for (const [i, runs] of passes.entries()) {
  const ms = runs.map((r) => r.ms).sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(1);
  const total = ms.reduce((sum, m) => sum + m, 0);
  console.log(
    `\npass ${i + 1}: ${runs.length} searches, ${total.toFixed(0)} ms; p50 ${at(0.5)}, p90 ${at(0.9)}, p99 ${at(0.99)}, ` +
      `max ${at(1)} ms; over 30 ms: ${ms.filter((m) => m > 30).length}`,
  );
  const parts = new Map<string, { statements: number; ms: number }>();
  for (const s of runs.flatMap((r) => r.statements)) {
    const part = parts.get(partOf(s.text)) ?? { statements: 0, ms: 0 };
    parts.set(partOf(s.text), { statements: part.statements + 1, ms: part.ms + s.ms });
  }
  for (const [part, t] of [...parts].sort((a, b) => b[1].ms - a[1].ms))
    console.log(`  ${part.padEnd(22)} ${String(t.statements).padStart(6)} ${t.ms.toFixed(0).padStart(7)} ms`);
}
console.log(`\nSlowest of pass 1, each statement's ms:`);
for (const run of [...passes[0]].sort((a, b) => b.ms - a.ms).slice(0, Number(values.top))) {
  console.log(`\n${run.ms.toFixed(1)} ms ${JSON.stringify(run.search)}`);
  for (const s of run.statements) console.log(`  ${s.ms.toFixed(1).padStart(6)}  ${partOf(s.text)}`);
}
