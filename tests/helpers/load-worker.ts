// Runs in a worker thread (its own event loop, so a stalled server cannot stall
// the measurement): keeps N keep-alive connections busy with distinct requests
// for a fixed time, probes a health path on a connection of its own meanwhile,
// and reports statuses, client timeouts and latencies. Bounded in time and
// count; targets 127.0.0.1 only. Imports only Node built-ins (no test transform).
import http from "node:http";
import { parentPort, workerData } from "node:worker_threads";

export type LoadKind = "search" | "page" | "get";

export type LoadOptions = {
  /** "load" drives the connections, "probe" only times the health path (each in a thread of its own). */
  role?: "load" | "probe";
  port: number;
  kind: LoadKind;
  connections: number;
  durationMs: number;
  /** A request not answered within this is counted as a timeout and abandoned. */
  timeoutMs: number;
  /** Sent with page views: a cookie makes a page uncacheable (and looks the session up). */
  cookie?: string;
  /** For kind "get": the one path requested. */
  path?: string;
  probePath: string;
  probeIntervalMs: number;
};

export type LoadReport = {
  sent: number;
  statuses: Record<string, number>;
  timeouts: number;
  errors: number;
  /** Latency percentiles (ms) of answers with that status class: "2xx", "503", "other". */
  latency: Record<string, { p50: number; p95: number; p99: number; max: number; count: number }>;
  probe: { count: number; p50: number; p99: number; max: number; failures: number };
  elapsedMs: number;
};

const WORDS = [
  "casino",
  "keto",
  "insurance",
  "dating",
  "loans",
  "solar",
  "vpn",
  "crypto",
  "sweepstakes",
  "medicare",
  "skin care",
  "free trial",
  "insu",
  "insurnce",
  "auto",
  "health",
  "games",
  "finance",
  "travel",
  "mobile",
];
const TABS = ["topOffers", "newest", "highestPayout", "payPerCall", "mobile"];

function requestFor(
  o: LoadOptions,
  i: number,
): { method: string; path: string; body?: string; headers: Record<string, string> } {
  const word = WORDS[i % WORDS.length];
  const page = 1 + (Math.floor(i / WORDS.length) % 4);
  const tab = TABS[Math.floor(i / (WORDS.length * 4)) % TABS.length];
  if (o.kind === "search") {
    // Distinct bodies: identical concurrent searches would share one query.
    const body = JSON.stringify({
      query: `${word} ${i % 7 ? "" : String.fromCharCode(97 + (i % 26))}`.trim(),
      page,
      selectedTab: tab,
    });
    return { method: "POST", path: "/api/offers/search", body, headers: { "content-type": "application/json" } };
  }
  if (o.kind === "get") return { method: "GET", path: o.path ?? "/healthz", headers: {} };
  const qs = new URLSearchParams({ selectedTab: tab, search: word, page: String(page) });
  return { method: "GET", path: `/?${qs}`, headers: o.cookie ? { cookie: o.cookie } : {} };
}

function percentiles(values: number[]) {
  const s = [...values].sort((a, b) => a - b);
  const at = (p: number) => (s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : 0);
  return { p50: at(50), p95: at(95), p99: at(99), max: s.length ? s[s.length - 1] : 0, count: s.length };
}

function send(agent: http.Agent, o: LoadOptions, req: ReturnType<typeof requestFor>, timeoutMs: number) {
  return new Promise<{ status: number | "timeout" | "error"; ms: number }>((resolve) => {
    const started = performance.now();
    let done = false;
    const finish = (status: number | "timeout" | "error") => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ status, ms: performance.now() - started });
    };
    const r = http.request(
      { host: "127.0.0.1", port: o.port, method: req.method, path: req.path, agent, headers: req.headers },
      (res) => {
        res.resume();
        res.on("end", () => finish(res.statusCode ?? 0));
        res.on("error", () => finish("error"));
      },
    );
    const timer = setTimeout(() => {
      finish("timeout");
      r.destroy();
    }, timeoutMs);
    r.on("error", () => finish("error"));
    r.end(req.body);
  });
}

async function run(o: LoadOptions): Promise<LoadReport> {
  const started = performance.now();
  const end = started + o.durationMs;
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.connections });
  const probeAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const statuses: Record<string, number> = {};
  const byClass: Record<string, number[]> = { "2xx": [], "503": [], other: [] };
  let sent = 0;
  let timeouts = 0;
  let errors = 0;
  let next = 0;

  const connection = async () => {
    while (performance.now() < end) {
      const res = await send(agent, o, requestFor(o, next++), o.timeoutMs);
      sent++;
      if (res.status === "timeout") timeouts++;
      else if (res.status === "error") errors++;
      else {
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        const cls = res.status >= 200 && res.status < 300 ? "2xx" : res.status === 503 ? "503" : "other";
        byClass[cls].push(res.ms);
      }
    }
  };

  const probes: number[] = [];
  let probeFailures = 0;
  const probe = async () => {
    while (performance.now() < end) {
      const res = await send(probeAgent, o, { method: "GET", path: o.probePath, headers: {} }, o.timeoutMs);
      if (res.status === 200) probes.push(res.ms);
      else probeFailures++;
      await new Promise((r) => setTimeout(r, o.probeIntervalMs));
    }
  };

  await Promise.all(o.role === "probe" ? [probe()] : Array.from({ length: o.connections }, connection));
  agent.destroy();
  probeAgent.destroy();
  const latency = Object.fromEntries(Object.entries(byClass).map(([k, v]) => [k, percentiles(v)]));
  const p = percentiles(probes);
  return {
    sent,
    statuses,
    timeouts,
    errors,
    latency,
    probe: { count: p.count, p50: p.p50, p99: p.p99, max: p.max, failures: probeFailures },
    elapsedMs: Math.round(performance.now() - started),
  };
}

if (parentPort && workerData) {
  const port = parentPort;
  run(workerData as LoadOptions).then(
    (report) => port.postMessage({ report }),
    (err: unknown) => port.postMessage({ error: String(err) }),
  );
}
