// Shared machinery of the hostile-input suite: how much to run, the seeds, how
// a request is sent (each from its own client address, counted), and the
// invariants every answer is held to.
//
// THE INVARIANTS (checked for every request the suite sends)
//  1. No 5xx. (The suite is not a load test, so a 503 "overloaded" is not accepted either.)
//  2. /api/* (and /healthz, /readyz) answers with status >= 400 carry a JSON body that is
//     exactly `{ "message": "<non-empty string>" }` (the README's API convention; no
//     endpoint documents extra error keys).
//  3. Nothing echoes the request back in an error. Every hostile value carries a unique
//     marker (`zqxj…`), and each marker has a policy saying where it may legitimately
//     come back in an error answer. 2xx/3xx answers are not checked: a search answer
//     repeats its query, a registration its name, a page its search box.
//       - "never": never in any error answer, body or headers. Used for markers in the
//         path, the query string of a page, headers and cookies, file parts and file
//         names, part and field names, secret fields (passwords, tokens, anti-bot
//         tokens), fields the form does not have, bodies that are not a well-formed form
//         or JSON object (wrong content type, unreadable multipart, raw JSON junk), and
//         form values that are oversized (> 8 KiB: no form field takes that much) or
//         binary (a NUL).
//       - "quote" (API field values and API query values): may come back only inside a
//         400 `message` that is one of the value-quoting templates of docs/product.md §5
//         ("{value} is not a valid email address", "{value} is not valid",
//         "{value} is not a valid phone number", "{value} is not a valid url"), and only
//         if the quoted value is at most 2000 characters (code points; the longest field
//         such a template applies to is a website URL). Any other message repeating input
//         ("Unknown site: …", "Route …:/… not found", "'…' is not a valid url component")
//         is an echo.
//       - "refill" (the known, non-secret fields of a page form): a page that shows the
//         form again after a refusal may put the typed value back into its own field;
//         never in a 413 or 415 answer.
//  4. A redirect (Location) never leaves the site.
//  5. The process stays up: no 'uncaughtException' / 'unhandledRejection' during the
//     run, and /healthz answers 200 at the end.
import crypto from "node:crypto";
import fc from "fast-check";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse as InjectResponse } from "fastify";

const FULL = process.env.FUZZ === "full";
/** The default seed: a failure reproduces with the same seed (fast-check prints seed and path). */
const BASE_SEED = Number(process.env.FUZZ_SEED ?? 20_260_522);
const DB_LABEL = process.env.TEST_DATABASE_URL ? "postgres" : "pglite";

/** Runs for a property: `quick` in `npm test`, `full` with FUZZ=full. */
export const runs = (quick: number, full: number) => (FULL ? full : quick);

const fnv1a = (s: string) => {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
};

/** One seed per property (derived from its name), so adding a property does not change the others' inputs. */
const seedFor = (name: string) => (BASE_SEED ^ fnv1a(name)) | 0;

const fcParams = (name: string, numRuns: number) => ({ seed: seedFor(name), numRuns });

// ------------------------------------------------------------------ markers

export type EchoPolicy = "never" | "quote" | "refill";
export type Marker = { value: string; policy: EchoPolicy; where: string };

/**
 * Settings for the app under test. The harness runs in the app's process and event
 * loop (inject), so its own work (building multi-megabyte bodies) would read as event
 * loop lag: load shedding is off here (this suite is not a load test; a 503 is a failure).
 * The offer-search rate limit is raised out of the way; every request comes from its own
 * address anyway, so the per-address account and lead-form limits stay as they are.
 */
export const FUZZ_ENV = {
  SEARCH_RATE_LIMIT_PER_MINUTE: "10000000",
  API_KEY_RATE_LIMIT_PER_MINUTE: "10000000",
  PRESSURE_MAX_EVENT_LOOP_DELAY_MS: "0",
  PRESSURE_MAX_EVENT_LOOP_UTILIZATION: "0",
};

/** Stands for "a fresh marker goes here" in generated values; replaced before sending. */
export const M = "\u27e6M\u27e7";

/** Hands out the markers of one request: `zqxj<base>k<n>v` (lowercase, so case-folding answers still match). */
export class MarkerBag {
  readonly markers: Marker[] = [];
  private readonly base: string;
  constructor(base: number) {
    this.base = base.toString(36).padStart(5, "0");
  }
  /** Replaces every placeholder in `text` with a fresh marker; `policy` may look at the filled text. */
  fill(text: string, where: string, policy: EchoPolicy | ((filled: string) => EchoPolicy)): string {
    if (!text.includes(M)) return text;
    const fresh: string[] = [];
    const filled = text.split(M).reduce((acc, part) => {
      const m = `zqxj${this.base}k${this.markers.length + fresh.length}v`;
      fresh.push(m);
      return `${acc}${m}${part}`;
    });
    const p = typeof policy === "function" ? policy(filled) : policy;
    for (const value of fresh) this.markers.push({ value, policy: p, where });
    return filled;
  }
}

// ------------------------------------------------------------------ requests

type Expectation = {
  /** The status the answer must have (e.g. 413 for an API body over the limit); several: any of them. */
  status?: number | number[];
};

export type FuzzRequest = {
  /** The catalogue entry, e.g. "POST /api/offers/search" or "page POST /login". */
  target: string;
  /** The input class, e.g. "json-fields", "raw-body", "url". */
  kind: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  markers: Marker[];
  /** Answers follow the API conventions (JSON `{ message }` errors). */
  api: boolean;
  expect?: Expectation;
  /** Work to do just before sending (e.g. settle marker policies that depend on how the server will parse the body). */
  refine?: () => Promise<void>;
};

const preview = (v: string | Buffer | undefined, n = 240) => {
  if (v === undefined) return "";
  const s = typeof v === "string" ? v : v.toString("latin1");
  const shown = JSON.stringify(s.length > n ? s.slice(0, n) : s);
  return s.length > n ? `${shown}… (${Buffer.byteLength(s)} bytes)` : shown;
};

/** A compact, copy-pasteable description of a request (fast-check prints it for a counterexample). */
function describeRequest(r: FuzzRequest): string {
  const headers = Object.entries(r.headers)
    .map(([k, v]) => `${k}: ${preview(v, 120)}`)
    .join("; ");
  const body = r.payload === undefined ? "" : ` body=${preview(r.payload)}`;
  // inject() resolves the URL the way a browser would (dot segments, backslashes): say so when that changed it.
  let sent = "";
  try {
    const u = new URL(r.url, "http://localhost");
    if (`${u.pathname}${u.search}` !== r.url) sent = ` (inject sends ${preview(`${u.pathname}${u.search}`, 120)})`;
  } catch {
    sent = " (not a URL)";
  }
  return `[${r.target} · ${r.kind}] ${r.method} ${preview(r.url, 300)}${sent}${headers ? ` {${headers}}` : ""}${body}`;
}

/** Gives a request a short printed form for fast-check's reports. */
export function printable<T extends FuzzRequest>(r: T): T {
  Object.defineProperty(r, fc.toStringMethod, { value: () => describeRequest(r), enumerable: false });
  return r;
}

// ------------------------------------------------------------------ sending and counting

export type Stats = {
  file: string;
  inputs: number;
  fiveXX: number;
  violations: Map<string, { count: number; example: string }>;
};

export const stats: Stats = { file: "", inputs: 0, fiveXX: 0, violations: new Map() };

let ipSeq = crypto.randomInt(0, 1 << 20);
/** A fresh client address per request: the per-address limits (search, login, leads) never couple inputs. */
const nextIp = () => {
  ipSeq = (ipSeq + 1) % (1 << 24);
  return `10.${(ipSeq >> 16) & 255}.${(ipSeq >> 8) & 255}.${ipSeq & 255}`;
};

export async function send(app: FastifyInstance, r: FuzzRequest): Promise<InjectResponse> {
  stats.inputs++;
  const options: InjectOptions = {
    method: r.method as InjectOptions["method"],
    url: r.url,
    headers: r.headers,
    remoteAddress: nextIp(),
    ...(r.payload !== undefined ? { payload: r.payload } : {}),
  };
  const res = await app.inject(options);
  if (res.statusCode >= 500) stats.fiveXX++;
  return res;
}

// ------------------------------------------------------------------ the invariants

const QUOTING_TEMPLATE = /^([\s\S]*) is not (?:a valid (?:email address|phone number|url)|valid)$/;
const MAX_QUOTED = 2000;
const SITE = "http://fuzz-site.invalid";

const around = (hay: string, needle: string) => {
  const i = hay.indexOf(needle);
  return JSON.stringify(hay.slice(Math.max(0, i - 80), i + needle.length + 40));
};

/** Everything wrong with one answer (empty: the answer is clean). */
function violations(r: FuzzRequest, res: InjectResponse): string[] {
  const problems: string[] = [];
  const status = res.statusCode;
  if (status >= 500) problems.push(`answered ${status}: ${preview(res.body, 200)}`);
  const wanted = r.expect?.status;
  if (wanted !== undefined && !(Array.isArray(wanted) ? wanted.includes(status) : status === wanted)) {
    problems.push(
      `answered ${status} instead of ${Array.isArray(wanted) ? wanted.join(" or ") : wanted}: ${preview(res.body, 160)}`,
    );
  }

  // 4. Redirects stay on the site.
  const location = res.headers.location;
  if (status >= 300 && status < 400 && typeof location === "string") {
    let target: URL | undefined;
    try {
      target = new URL(location, `${SITE}/some/page`);
    } catch {
      problems.push(`redirects to an unparsable Location ${preview(location, 120)}`);
    }
    if (target && target.origin !== SITE && target.host !== "localhost" && target.host !== "localhost:80") {
      problems.push(`redirects off-site: Location ${preview(location, 120)}`);
    }
  }

  if (status < 400) return problems;

  // 2. API errors are exactly { message }.
  let message: string | undefined;
  if (r.api && r.method !== "HEAD") {
    const type = String(res.headers["content-type"] ?? "");
    let body: unknown;
    try {
      body = JSON.parse(res.body);
    } catch {
      problems.push(`error answer is not JSON (${type || "no content-type"}): ${preview(res.body, 160)}`);
    }
    if (body !== undefined) {
      const ok =
        typeof body === "object" &&
        body !== null &&
        !Array.isArray(body) &&
        Object.keys(body).length === 1 &&
        typeof (body as { message?: unknown }).message === "string" &&
        (body as { message: string }).message.length > 0;
      if (!ok) problems.push(`error body is not { message }: ${preview(res.body, 200)}`);
      else message = (body as { message: string }).message;
      if (!/^application\/json/i.test(type)) problems.push(`error answer has content-type ${type || "(none)"}`);
    }
  }

  // 3. No echo.
  const body = res.body.toLowerCase();
  const headers = Object.entries(res.headers)
    .map(([k, v]) => `${k}: ${String(v)}`)
    .join("\n")
    .toLowerCase();
  const echoed = new Map<string, string[]>();
  for (const m of r.markers) {
    const inBody = body.includes(m.value);
    const inHeaders = headers.includes(m.value);
    if (!inBody && !inHeaders) continue;
    let allowed = false;
    if (!inHeaders && m.policy === "quote" && r.api && status === 400 && message !== undefined) {
      const quoted = QUOTING_TEMPLATE.exec(message);
      // Characters as a person counts them (code points), as the fields' "at most N characters" limits do.
      allowed = Boolean(quoted && quoted[1].toLowerCase().includes(m.value) && [...quoted[1]].length <= MAX_QUOTED);
    }
    if (!inHeaders && m.policy === "refill" && !r.api && status !== 413 && status !== 415) allowed = true;
    if (allowed) continue;
    const group = `${m.where} (${m.policy})${inHeaders ? " in a header" : ""}`;
    const seen = echoed.get(group) ?? [];
    seen.push(inHeaders ? around(headers, m.value) : around(body, m.value));
    echoed.set(group, seen);
  }
  for (const [group, where] of echoed) {
    problems.push(
      `${status} answer echoes the ${group} marker${where.length > 1 ? ` (${where.length}×)` : ""}: ${where[0]}`,
    );
  }
  return problems;
}

/** Sends, checks, records; throws (for fast-check) with a readable report when the answer breaks an invariant. */
export async function sendAndCheck(app: FastifyInstance, r: FuzzRequest): Promise<InjectResponse> {
  await r.refine?.();
  const res = await send(app, r);
  const found = violations(r, res);
  if (found.length) {
    for (const v of found) {
      const key = `${r.target} · ${r.kind} · ${v
        .replace(/zqxj[0-9a-z]+k\d+v/g, "<marker>")
        .replace(/"[^"]{60,}"/g, '"…"')
        .slice(0, 140)}`;
      const seen = stats.violations.get(key);
      if (seen) seen.count++;
      else stats.violations.set(key, { count: 1, example: describeRequest(r) });
    }
    throw new Error(`${describeRequest(r)}\n  → ${found.join("\n  → ")}`);
  }
  return res;
}

// ------------------------------------------------------------------ the process stays up

export const processEvents: string[] = [];
const onUncaught = (err: unknown) => processEvents.push(`uncaughtException: ${String((err as Error)?.stack ?? err)}`);
const onUnhandled = (err: unknown) => processEvents.push(`unhandledRejection: ${String((err as Error)?.stack ?? err)}`);

export function watchProcess() {
  process.on("uncaughtException", onUncaught);
  process.on("unhandledRejection", onUnhandled);
  return () => {
    process.off("uncaughtException", onUncaught);
    process.off("unhandledRejection", onUnhandled);
  };
}

/** The one-line summary printed at the end of each file. */
export function summary(planned: number): string {
  const lines = [
    `fuzz[${stats.file} · ${DB_LABEL} · ${FULL ? "full" : "quick"} · seed ${BASE_SEED}]: ${stats.inputs} inputs (planned ≥ ${planned}), ${stats.fiveXX} 5xx, ${[...stats.violations.values()].reduce((n, v) => n + v.count, 0)} failing answers`,
  ];
  for (const [key, v] of stats.violations) lines.push(`  ${v.count}× ${key}\n      e.g. ${v.example.slice(0, 400)}`);
  return lines.join("\n");
}

/** Runs one property: every generated request is sent and held to the invariants; failures shrink at most `shrinks` times. */
export async function checkProperty(
  app: FastifyInstance,
  name: string,
  arb: fc.Arbitrary<FuzzRequest>,
  numRuns: number,
  shrinks: number,
) {
  await fc.assert(
    fc.asyncProperty(fc.limitShrink(arb, shrinks), async (r) => {
      await sendAndCheck(app, r);
    }),
    fcParams(name, numRuns),
  );
}
