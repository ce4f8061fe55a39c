// node bench/search-pair.ts --before /path/to/other/checkout [--url postgres://…/seed1m] [--unique 1000] [--rounds 4]
//
// Two versions of the search, side by side in one process, on one connection each: every search of
// the mix and `unique` unique searches (bench/mix.ts), the two checkouts' in turn, `rounds` times
// (each goes first in half of them), with the search cache off; each search's fastest run of each is kept. On a machine
// whose speed drifts from minute to minute, runs of the two minutes apart differ by more than most
// changes do; searches taken in turn drift together. `--before` is a checkout of the same project
// (`git worktree add /tmp/before <commit>`, with node_modules linked), whose modules load on their own.
import path from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "#db/client.ts";
import { createOfferService } from "#core/offers/offers.ts";
import { parseOfferSearchPayload } from "#contracts/offers.ts";
import { SEARCH_MIX, uniqueSearches } from "./mix.ts";

const { values } = parseArgs({
  options: {
    before: { type: "string" },
    url: { type: "string", default: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/seed1m" },
    unique: { type: "string", default: "1000" },
    rounds: { type: "string", default: "4" },
    top: { type: "string", default: "10" },
  },
});
if (!values.before) throw new Error("--before: a checkout of the version to compare with");
if (Number(values.rounds) % 2) throw new Error("--rounds: an even number, so each version goes first as often");
if (!["127.0.0.1", "localhost"].includes(new URL(values.url).hostname))
  throw new Error("Compares on a local PostgreSQL only (127.0.0.1)");

type Service = { search(input: ReturnType<typeof parseOfferSearchPayload>): Promise<unknown> };
type Versions = { name: string; service: Service; close: () => Promise<void> }[];
const other = {
  client: (await import(path.resolve(values.before, "db/client.ts"))) as { openDatabase: typeof openDatabase },
  offers: (await import(path.resolve(values.before, "core/offers/offers.ts"))) as {
    createOfferService: typeof createOfferService;
  },
};
const versions: Versions = [];
for (const [name, open, create] of [
  ["before", other.client.openDatabase, other.offers.createOfferService],
  ["after", openDatabase, createOfferService],
] as const) {
  const db = await open({ url: values.url, poolSize: 1 });
  versions.push({ name, service: create(db, { ipHashSalt: "", searchCacheTtlMs: 0 }), close: () => db.close() });
}

const searches = [...SEARCH_MIX, ...uniqueSearches(Number(values.unique))];
// Once each first: window edges, statistics and known words are read once per version.
for (const search of searches) for (const v of versions) await v.service.search(parseOfferSearchPayload(search));

const fastest = searches.map(() => versions.map(() => Infinity));
// Who goes first alternates: the second run of a search finds the pages the first one read in
// PostgreSQL's buffers (the same code in both places ran 17% faster second, at a million offers).
for (let round = 0; round < Number(values.rounds); round++)
  for (const [i, search] of searches.entries())
    for (const j of (round + i) % 2 ? [1, 0] : [0, 1]) {
      const started = performance.now();
      await versions[j].service.search(parseOfferSearchPayload(search));
      fastest[i][j] = Math.min(fastest[i][j], performance.now() - started);
    }
for (const v of versions) await v.close();

const total = (j: number) => fastest.reduce((sum, ms) => sum + ms[j], 0);
const quantile = (j: number, q: number) => {
  const ms = fastest.map((m) => m[j]).sort((a, b) => a - b);
  return ms[Math.min(ms.length - 1, Math.floor(q * ms.length))];
};
console.log(`${searches.length} searches, each one's fastest of ${values.rounds} runs, ms:`);
console.log("version  total    p50    p90    p99    max");
for (const [j, v] of versions.entries())
  console.log(
    `${v.name.padEnd(7)} ${total(j).toFixed(0).padStart(6)} ${[0.5, 0.9, 0.99, 1].map((q) => quantile(j, q).toFixed(1).padStart(6)).join(" ")}`,
  );
const changed = fastest
  .map((ms, i) => ({ ms, search: searches[i] }))
  .sort((a, b) => a.ms[1] - a.ms[0] - (b.ms[1] - b.ms[0]));
console.log("\nMost faster, then most slower (before → after ms):");
for (const c of [...changed.slice(0, Number(values.top)), ...changed.slice(-Number(values.top)).reverse()])
  console.log(`${c.ms[0].toFixed(1).padStart(7)} → ${c.ms[1].toFixed(1).padStart(7)}  ${JSON.stringify(c.search)}`);
