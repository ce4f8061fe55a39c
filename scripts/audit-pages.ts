// npm run audit:pages [-- --max-minutes 30 --runs 1 --pages home,offer --reports /tmp/lhr]
//
// Lighthouse (mobile, its default config) on Debian's Chromium against every
// indexable page of the production build, served on 127.0.0.1 from a fresh
// embedded database with the demo data. Beside each page, a static copy of it
// (the same HTML, headers and built assets, compressed as the app compresses
// them, from a plain Node server on this machine) is audited too: the
// performance the page would have if the server did no work. Both servers run
// at the lowest CPU priority, so their work does not lengthen the browser's
// tasks. Prints a markdown table (page | performance of the app and of the
// static copy, median and spread | the metrics behind both | server response
// times | accessibility | best practices | SEO), how the app compares with the
// copy over all pages, each audit that cost a point, and writes it all to
// bench/results/. Exits non-zero on a script error only, never on a score.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import zlib from "node:zlib";
import lighthouse from "lighthouse";
import { serverNodeFlags } from "#server/node-flags.ts";

const { values } = parseArgs({
  options: {
    "max-minutes": { type: "string", default: "30" },
    runs: { type: "string", default: "1" },
    chromium: { type: "string", default: "/usr/bin/chromium" },
    /** Only these pages, by name (as in the table), comma-separated. */
    pages: { type: "string" },
    /** Keep every run's Lighthouse report (JSON) in this directory, to see what two runs did differently. */
    reports: { type: "string" },
  },
});
const maxMinutes = Number(values["max-minutes"]);
const runs = Number(values.runs);
if (!(maxMinutes > 0) || !Number.isInteger(runs) || runs < 1 || runs > 9)
  throw new Error("--max-minutes must be positive and --runs an integer from 1 to 9");
if (!fs.existsSync(values.chromium)) throw new Error(`No browser at ${values.chromium} (apt-get install -y chromium)`);

const root = path.resolve(import.meta.dirname, "..");
const clientDir = path.join(root, "build", "client");
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const log = (msg: string) => console.log(`[audit] ${msg}`);

const children: ChildProcess[] = [];
const servers: http.Server[] = [];
let dataDir: string | undefined;
function cleanup() {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  for (const server of servers) server.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
}
process.on("exit", cleanup);
// Bounded in time: past the limit the run stops and says so.
setTimeout(() => {
  console.error(`[audit] stopped after the ${maxMinutes}-minute limit`);
  cleanup();
  process.exit(1);
}, maxMinutes * 60_000).unref();

/**
 * The servers (the app, and the static copy in this process) run at the lowest CPU priority, the
 * browser at the normal one: a visitor's phone does not share its CPU with the site's server, and
 * on a machine of two cores a render or a page cache refresh in the background otherwise takes
 * time from the browser's tasks, which Lighthouse's throttling then multiplies by four. The
 * servers still get every cycle the browser leaves.
 */
const SERVER_NICENESS = 19;

/** The app's process id, to see when its work behind an answer is done. */
let appPid: number | undefined;

/**
 * Resolves once the app has used no CPU for 200 ms (at most 3 s; 1 s where /proc cannot tell).
 * The request that warms a page finds its copy past its lifetime (a run of the other server lies
 * between two of the app's), so the app renders and compresses the page again behind that answer:
 * 40–300 ms of CPU. Started just before Lighthouse's load, it shares the machine with the browser
 * being measured, a cost the static copy never has and a visitor's phone never pays.
 */
async function appIdle(): Promise<void> {
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  let last = appCpuMs();
  if (Number.isNaN(last)) return sleep(1000);
  for (let waited = 0, quiet = 0; waited < 3000 && quiet < 2; waited += 100) {
    await sleep(100);
    const now = appCpuMs();
    quiet = now === last ? quiet + 1 : 0;
    last = now;
  }
}

/** The CPU time the app's process has used (user and system), in ms; NaN where /proc cannot tell. */
function appCpuMs(): number {
  try {
    const fields = fs.readFileSync(`/proc/${appPid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in clock ticks of 10 ms
  } catch {
    return NaN;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });
}

/** Resolves with the first match of `pattern` in the child's output, or fails when it exits first. */
function waitForOutput(child: ChildProcess, pattern: RegExp, what: string): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const onData = (chunk: Buffer) => {
      seen = (seen + chunk.toString()).slice(-20_000);
      const match = seen.match(pattern);
      if (match) resolve(match);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) =>
      reject(new Error(`${what} exited (${code}) before it was ready:\n${seen.slice(-2000)}`)),
    );
  });
}

async function startApp(): Promise<string> {
  const build = spawnSync(process.execPath, [path.join(root, "scripts", "build-if-needed.ts")], { stdio: "inherit" });
  if (build.status !== 0) throw new Error("the build failed");
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "offeratlas-audit-"));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  log(`starting the app on ${baseUrl} (seeding the demo data takes a minute)…`);
  const app = spawn(process.execPath, [...serverNodeFlags(), path.join(root, "server", "main.ts")], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: baseUrl,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(app);
  appPid = app.pid;
  if (app.pid) os.setPriority(app.pid, SERVER_NICENESS);
  await waitForOutput(app, /Server listening at/, "the app");
  return baseUrl;
}

async function startChromium(): Promise<number> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "offeratlas-audit-chromium-"));
  const chromium = spawn(
    values.chromium,
    [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--remote-debugging-port=0",
      `--user-data-dir=${profile}`,
      "--no-first-run",
      "--no-default-browser-check",
      "about:blank",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  children.push(chromium);
  chromium.once("exit", () => fs.rmSync(profile, { recursive: true, force: true }));
  const [, port] = await waitForOutput(chromium, /DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)\//, "Chromium");
  return Number(port);
}

/** A page's text and headers; a 503 (the app shedding load on a busy machine) is retried after its Retry-After. */
async function fetchPage(url: string): Promise<{ text: string; headers: Headers }> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(url, { redirect: "manual" });
    if (res.status === 200) return { text: await res.text(), headers: res.headers };
    if (res.status !== 503 || attempt === 5) throw new Error(`${url} answered ${res.status}`);
    await new Promise((r) => setTimeout(r, 1000 * (Number(res.headers.get("retry-after")) || 1)));
  }
}
const fetchText = async (url: string) => (await fetchPage(url)).text;

/** The indexable pages: fixed addresses, plus one offer, network and traffic source found on their lists. */
async function indexablePages(baseUrl: string): Promise<{ name: string; path: string }[]> {
  const first = async (list: string, pattern: RegExp) => {
    const match = (await fetchText(baseUrl + list)).match(pattern);
    if (!match) throw new Error(`no link matching ${pattern} on ${list}`);
    return match[1].replace(/&amp;/g, "&");
  };
  return [
    { name: "home", path: "/" },
    { name: "search", path: "/?search=casino" },
    { name: "offer", path: await first("/", /href="(\/offer\/\d+[^"]*)"/) },
    { name: "pay-per-call offers", path: "/pay-per-call-offers" },
    { name: "networks", path: "/networks" },
    { name: "network", path: await first("/networks", /href="(\/network\/\d+[^"]*)"/) },
    { name: "traffic sources", path: "/traffic-sources" },
    { name: "traffic source", path: await first("/traffic-sources", /href="(\/traffic-sources\/details\/\d+[^"]*)"/) },
    { name: "faq", path: "/faq" },
    { name: "links", path: "/links" },
    { name: "privacy", path: "/privacy" },
    { name: "terms", path: "/terms" },
    { name: "developers", path: "/developers" },
    { name: "login", path: "/login" },
    { name: "register", path: "/register" },
    { name: "advertise", path: "/advertise" },
    { name: "add your network", path: "/add-your-network" },
    { name: "contact", path: "/contact" },
  ];
}

type Snapshot = { type: string; body: Buffer; headers?: Record<string, string>; encoded?: Record<string, Buffer> };
/** What describes one transfer rather than the page (the copy sets its own), or differs per visitor. */
const TRANSFER_HEADERS =
  /^(content-(length|encoding|type)|transfer-encoding|date|connection|keep-alive|vary|cache-control|set-cookie|x-request-id|x-page-cache)$/;
const TYPES: Record<string, string> = {
  ".js": "text/javascript",
  ".css": "text/css",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon",
  ".png": "image/png",
  ".webp": "image/webp",
  ".jpg": "image/jpeg",
};

/**
 * A snapshot's body in the best encoding the browser accepts, as a static host with precompressed
 * files serves it: the build's own .br and .gz beside an asset (the files the app sends), and for
 * the rest each compressed once at the highest quality (the app's pages get brotli's 6, so the
 * copy's are if anything smaller). Serving the copy gzip only, as before stop 38, gave it larger
 * files, a later simulated first paint, and so fewer of its early tasks counted as blocking.
 */
function encoded(snapshot: Snapshot, file: string, acceptEncoding: string): [string | undefined, Buffer] {
  if (!/text|javascript|svg|json/.test(snapshot.type)) return [undefined, snapshot.body];
  for (const [encoding, extension, compress] of [
    ["br", ".br", (b: Buffer) => zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } })],
    ["gzip", ".gz", (b: Buffer) => zlib.gzipSync(b, { level: 9 })],
  ] as const) {
    if (!new RegExp(`\\b${encoding}\\b`).test(acceptEncoding)) continue;
    snapshot.encoded ??= {};
    snapshot.encoded[encoding] ??= fs.existsSync(file + extension)
      ? fs.readFileSync(file + extension)
      : compress(snapshot.body);
    return [encoding, snapshot.encoded[encoding]];
  }
  return [undefined, snapshot.body];
}

/**
 * The static copy: each page as the app served it, its HTML and its headers (the security
 * headers a host of this site must send too: the browser's work depends on them, COOP most),
 * the same-origin images it references fetched once, the built assets read from build/client,
 * and the route manifest (lazy route discovery) as the app answers it, kept after its first
 * answer; route data asked of the app each time. Everything else (the API) answers 404, as a
 * static host would.
 */
async function startStaticCopy(baseUrl: string, pages: { path: string }[]): Promise<string> {
  const snapshots = new Map<string, Snapshot>();
  for (const page of pages) {
    const { text: html, headers } = await fetchPage(baseUrl + page.path);
    snapshots.set(page.path, {
      type: "text/html; charset=utf-8",
      body: Buffer.from(html),
      headers: Object.fromEntries([...headers].filter(([name]) => !TRANSFER_HEADERS.test(name))),
    });
    for (const [, ref] of html.matchAll(/(?:src|href)="(\/(?!\/|assets\/)[^"#?]+\.(?:png|webp|jpe?g|svg|ico))"/g)) {
      if (snapshots.has(ref)) continue;
      const res = await fetch(baseUrl + ref);
      if (res.ok)
        snapshots.set(ref, {
          type: res.headers.get("content-type") ?? "application/octet-stream",
          body: Buffer.from(await res.arrayBuffer()),
        });
    }
  }
  // Compressed ahead, so no audited request waits for brotli's highest quality.
  for (const snapshot of snapshots.values()) for (const encoding of ["br", "gzip"]) encoded(snapshot, "", encoding);
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://static");
    const key = url.pathname === "/" && url.search ? `/${url.search}` : url.pathname + url.search;
    let snapshot = snapshots.get(key) ?? snapshots.get(url.pathname);
    const file = path.join(clientDir, path.normalize(url.pathname));
    if (!snapshot && file.startsWith(clientDir + path.sep) && fs.statSync(file, { throwIfNoEntry: false })?.isFile())
      snapshot = { type: TYPES[path.extname(file)] ?? "application/octet-stream", body: fs.readFileSync(file) };
    if (!snapshot && req.method === "GET") {
      // Anything else the page asks for (the route manifest, Swagger UI's files under /vendor/):
      // the app's answer, once, so the copy serves what the app serves. Route data (what the idle
      // prefetch asks for the links in view) is asked of the app every time, as a static host's
      // pages ask their API: the app's work for it then falls in the copy's runs as in its own.
      const answer = await fetch(baseUrl + key);
      if (answer.ok) {
        snapshot = {
          type: answer.headers.get("content-type") ?? "application/octet-stream",
          body: Buffer.from(await answer.arrayBuffer()),
        };
        if (!url.pathname.endsWith(".data")) snapshots.set(key, snapshot);
      }
    }
    if (!snapshot) {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not found");
      return;
    }
    const [encoding, body] = encoded(snapshot, file, String(req.headers["accept-encoding"] ?? ""));
    const immutable = url.pathname.startsWith("/assets/");
    res.writeHead(200, {
      ...snapshot.headers,
      "content-type": snapshot.type,
      "cache-control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
      ...(encoding ? { "content-encoding": encoding, vary: "accept-encoding" } : {}),
    });
    res.end(body);
  });
  servers.push(server);
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return `http://127.0.0.1:${port}`;
}

let lighthouseVersion = "";
/** The performance metrics that make up its score (simulated, ms), shown beside it so a gap has a cause. */
const METRICS = {
  fcp: "first-contentful-paint",
  lcp: "largest-contentful-paint",
  tbt: "total-blocking-time",
  si: "speed-index",
} as const;
/** The category scores, the metrics, and the document's server response time as Lighthouse saw it. */
type Scores = Record<(typeof CATEGORIES)[number] | keyof typeof METRICS | "serverMs" | "appCpuMs", number>;
type Finding = { category: string; id: string; title: string; page: string; items: string[] };

/** The first items an audit names (a console message, an element, an address), to act on without re-running it. */
function auditItems(details: unknown): string[] {
  const items = (details as { items?: Record<string, unknown>[] } | undefined)?.items ?? [];
  return items.slice(0, 3).map((item) => {
    const node = item.node as { snippet?: string } | undefined;
    const text = [item.description, node?.snippet, item.url, item.source].find((v) => typeof v === "string");
    return (text ?? JSON.stringify(item)).replace(/\s+/g, " ").slice(0, 160);
  });
}

/** Reports kept per page and server (`--reports`), to number the next. */
const reportsKept = new Map<string, number>();

async function auditOnce(url: string, port: number, page: string, findings: Finding[] | undefined) {
  const result = await lighthouse(url, { port, output: "json", logLevel: "error", onlyCategories: [...CATEGORIES] });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
  lighthouseVersion = lhr.lighthouseVersion;
  if (values.reports) {
    const name = `${page.replace(/\W+/g, "-")}-${new URL(url).port}`;
    const run = (reportsKept.get(name) ?? 0) + 1;
    reportsKept.set(name, run);
    fs.mkdirSync(values.reports, { recursive: true });
    fs.writeFileSync(path.join(values.reports, `${name}-${run}.json`), JSON.stringify(lhr));
  }
  const scores = { serverMs: Math.round(lhr.audits["server-response-time"]?.numericValue ?? NaN) } as Scores;
  for (const [metric, id] of Object.entries(METRICS))
    scores[metric as keyof typeof METRICS] = Math.round(lhr.audits[id]?.numericValue ?? NaN);
  for (const category of CATEGORIES) {
    scores[category] = Math.round((lhr.categories[category]?.score ?? 0) * 100);
    if (!findings || category === "performance") continue;
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const a = lhr.audits[ref.id];
      if (ref.weight > 0 && a.score !== null && a.score < 1)
        findings.push({ category, id: a.id, title: a.title, page, items: auditItems(a.details) });
    }
  }
  return scores;
}

/** Lighthouse's trace sometimes comes back incomplete (NO_NAVSTART) on a busy machine: one more try. */
/**
 * One audit, with the CPU the app used meanwhile (`appCpuMs`): work the server does while the
 * browser is measured (a render behind an answer, prefetched pages' data) shares the machine
 * with the browser, and the static copy's runs show what the same page costs without it.
 */
async function audit(url: string, port: number, page: string, findings: Finding[] | undefined): Promise<Scores> {
  const before = appCpuMs();
  let scores: Scores;
  try {
    scores = await auditOnce(url, port, page, findings);
  } catch (err) {
    log(`${err instanceof Error ? err.message : String(err)}; trying once more`);
    scores = await auditOnce(url, port, page, findings);
  }
  return { ...scores, appCpuMs: appCpuMs() - before };
}

/** The paths robots.txt keeps crawlers out of: such a page is audited, but its SEO is not expected at 100. */
async function disallowed(baseUrl: string): Promise<string[]> {
  const robots = await fetchText(`${baseUrl}/robots.txt`);
  return [...robots.matchAll(/^Disallow:\s*(\S+)/gm)].map((m) => m[1]);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const started = Date.now();
  const baseUrl = await startApp();
  const only = values.pages?.split(",").map((name) => name.trim());
  const pages = (await indexablePages(baseUrl)).filter((page) => !only || only.includes(page.name));
  if (!pages.length) throw new Error(`--pages names none of the pages`);
  const staticUrl = await startStaticCopy(baseUrl, pages);
  const port = await startChromium();
  // After the browser has started, so it keeps the normal priority this process had.
  os.setPriority(SERVER_NICENESS);
  log(`Chromium on port ${port}; auditing ${pages.length} pages and their static copies (${runs} run(s) each)…`);

  const blocked = await disallowed(baseUrl);
  const rows: string[] = [];
  const findings: Finding[] = [];
  const failures: string[] = [];
  /** Per indexable page, whether the app's median performance is at least the copy's; and app minus copy, run by run. */
  const compared: boolean[] = [];
  const pairs: number[] = [];
  for (const page of pages) {
    const indexable = !blocked.some((prefix) => page.path.startsWith(prefix));
    const app: Scores[] = [];
    const copy: Scores[] = [];
    const label = `${page.name} (\`${page.path}\`)${indexable ? "" : ", not indexable (robots.txt)"}`;
    try {
      for (let run = 0; run < runs; run++) {
        // The page as most visitors get it: one visitor just before, so it comes from the page
        // cache (PAGE_CACHE_SECONDS), as the static copy comes from memory, and the render that
        // visitor set off behind the answer is over. What a first visitor waits for a render is
        // the page benchmark's (bench:pages); the table shows both servers' times.
        const ofApp = async () => {
          await fetchText(baseUrl + page.path);
          await appIdle();
          return audit(baseUrl + page.path, port, page.name, run === 0 ? findings : undefined);
        };
        const ofCopy = () => audit(staticUrl + page.path, port, page.name, undefined);
        // Which of the two goes first alternates, so neither always meets a warmer or busier machine.
        if (run % 2 === 0) {
          app.push(await ofApp());
          copy.push(await ofCopy());
        } else {
          copy.push(await ofCopy());
          app.push(await ofApp());
        }
      }
    } catch (err) {
      // One page Lighthouse cannot record does not cost the others; the run still fails at the end.
      failures.push(`${label}: ${err instanceof Error ? err.message : String(err)}`);
      rows.push(`| ${label} | failed | | | | | | | |`);
      continue;
    }
    const score = (c: keyof Scores, of = app) => median(of.map((s) => s[c]));
    const both = (c: keyof Scores) => `${score(c)} / ${score(c, copy)}`;
    const metrics = Object.keys(METRICS)
      .map((m) => both(m as keyof typeof METRICS))
      .join(" · ");
    // With several runs, the spread beside the median: a point's gap inside it is the machine's noise.
    const performance = (of: Scores[]) => {
      const xs = of.map((s) => s.performance);
      return runs > 1 ? `${median(xs)} (${Math.min(...xs)}–${Math.max(...xs)})` : String(xs[0]);
    };
    if (indexable) pairs.push(...app.map((s, i) => s.performance - copy[i].performance));
    if (indexable) compared.push(score("performance") >= score("performance", copy));
    const row = `| ${label} | ${performance(app)} | ${performance(copy)} | ${metrics} | ${both("serverMs")} | ${both("appCpuMs")} | ${score("accessibility")} | ${score("best-practices")} | ${score("seo")} |`;
    rows.push(row);
    log(row);
  }

  const mean = pairs.reduce((a, b) => a + b, 0) / (pairs.length || 1);
  const summary = `Performance of the app at least the static copy's (medians) on ${compared.filter(Boolean).length} of ${compared.length} indexable pages; app minus copy, run by run (each pair audited one after the other): mean ${mean.toFixed(2)} points, app ahead or level in ${pairs.filter((d) => d >= 0).length} of ${pairs.length} pairs.`;
  log(summary);

  const byAudit = new Map<string, { f: Finding; pages: string[] }>();
  for (const f of findings) {
    const key = `${f.category}: ${f.id}`;
    byAudit.set(key, {
      f,
      pages: [...(byAudit.get(key)?.pages ?? []), `${f.page}${f.items.length ? `: ${f.items.join(" | ")}` : ""}`],
    });
  }
  const report = [
    `# Lighthouse audit, ${new Date().toISOString()}`,
    "",
    `Lighthouse ${lighthouseVersion}, mobile (default config, simulated throttling), ${values.chromium}; the app on 127.0.0.1 (PGlite, demo data); median of ${runs} run(s) (performance: the lowest and highest beside it), each after one request of the page (the page cache serves it, as to most visitors) and once the app's work behind that answer is done. "static copy": the same HTML, headers and assets, and the route manifest, from a plain Node server on the same machine; the route data the page prefetches comes from the app for both. "app's CPU": what the app's process used during the runs (its own background work falls in both).`,
    "",
    "| page | performance | performance (static copy) | FCP · LCP · TBT · SI ms (app / static) | server response ms (app / static) | app's CPU ms during the run (app / static) | accessibility | best practices | SEO |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows,
    "",
    summary,
    "",
    "## Audits that cost a point (accessibility, best practices, SEO)",
    "",
    ...(byAudit.size
      ? [...byAudit.entries()].map(
          ([key, { f, pages: on }]) => `- ${key} — ${f.title}\n${on.map((p) => `  - ${p}`).join("\n")}`,
        )
      : ["None."]),
    "",
    ...(failures.length ? ["## Pages Lighthouse could not audit", "", ...failures.map((f) => `- ${f}`), ""] : []),
    `Took ${Math.round((Date.now() - started) / 1000)} s.`,
    "",
  ].join("\n");
  console.log(`\n${report}`);
  const dir = path.join(root, "bench", "results");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `audit-${new Date().toISOString().replace(/[:.]/g, "-")}.md`);
  fs.writeFileSync(file, report);
  log(`written to ${path.relative(root, file)}`);
  if (failures.length) throw new Error(`${failures.length} page(s) could not be audited`);
}

main().then(
  () => {
    cleanup();
    process.exit(0);
  },
  (err: unknown) => {
    console.error(`[audit] ${err instanceof Error ? err.stack : String(err)}`);
    cleanup();
    process.exit(1);
  },
);
