// A network's published offer feed for tests (and demos): the directory's CSV
// template (docs/supply/feeds.md) or another layout (renamed columns, another
// delimiter, a BOM), or the same offers as JSON. Offer n is computed, never
// stored, and the catalogue can change between runs; switches make it answer
// 429 or 500 a number of times first, ask for a Bearer key, serve a literal
// body, or hold the download midway (to show the reader streams).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { TEMPLATE_FIELDS, type TemplateField } from "#core/supply/feed-template.ts";

export type FakeFeedOptions = {
  /** Offers 1..count. */
  count: number;
  /** When set, the feed answers 401 without `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
};

type Fault = { status: 429 | 500; retryAfter?: string };
export type FeedRow = Record<TemplateField, string>;
export type FakeFeed = Awaited<ReturnType<typeof startFakeFeed>>;

const VERTICALS = ["Finance", "Sweepstakes", "Health & Beauty", "Gaming"];
const COUNTRIES = ["US", "CA", "GB", "DE", "FR", "AU", "BR"];

/**
 * Offer n in the template: the payout types cycle through CPA, CPS (a percent),
 * CPL, revshare (a percent) and pay-per-call (no type, pay_per_call=true).
 */
export function feedOffer(n: number, version = 0): FeedRow {
  const kind = n % 5;
  const amount = String(10 + (n % 50) + version);
  return {
    external_id: `OF-${n}`,
    name: `Feed Offer ${n}`,
    description: `Offer ${n}, for "everyone"`,
    payout: kind === 1 || kind === 3 ? `${5 + (n % 20) + version}%` : amount,
    payout_type: ["CPA", "cps", "CPL", "RevShare", ""][kind],
    currency: n % 7 === 6 ? "EUR" : "USD",
    countries: `${COUNTRIES[n % COUNTRIES.length]}|${COUNTRIES[(n + 1) % COUNTRIES.length].toLowerCase()}`,
    verticals: `${VERTICALS[n % VERTICALS.length]}|${VERTICALS[(n + 1) % VERTICALS.length]}`,
    preview_url: `https://www.brand-${n}.example.com/landing?x=1`,
    mobile: n % 2 === 0 ? "true" : "false",
    pay_per_call: kind === 4 ? "true" : "false",
  };
}

/** One CSV field: quoted when it holds a quote, the delimiter or a line break (RFC 4180). */
function csvField(value: string, delimiter: string) {
  return value.includes('"') || value.includes(delimiter) || /[\r\n]/.test(value)
    ? `"${value.replace(/"/g, '""')}"`
    : value;
}

export async function startFakeFeed(options: FakeFeedOptions) {
  const state = {
    apiKey: options.apiKey,
    count: options.count,
    /** Offers left out of the feed. */
    removed: new Set<number>(),
    /** Offers whose payout moved, by how much. */
    versions: new Map<number, number>(),
    /** Rows written as they are (template field → text), replacing the generated offer n. */
    overrides: new Map<number, Partial<FeedRow>>(),
    /** The CSV header per template field (another layout); fields set to null are left out. */
    headers: {} as Partial<Record<TemplateField, string | null>>,
    delimiter: ",",
    bom: false,
    /** A JSON feed as `{ "offers": [...] }` instead of a bare list. */
    wrapJson: false,
    /** Served instead of the generated feed. */
    body: undefined as string | undefined,
    /** Answers given before the real one, in order. */
    faults: [] as Fault[],
    requests: 0,
    authorizations: [] as (string | undefined)[],
    /** After this many rows the CSV download waits for release(). */
    holdAfterRows: undefined as number | undefined,
    rowsSent: 0,
  };
  let release = () => {};

  const rows = () => {
    const out: FeedRow[] = [];
    for (let n = 1; n <= state.count; n++) {
      if (state.removed.has(n)) continue;
      out.push({ ...feedOffer(n, state.versions.get(n) ?? 0), ...state.overrides.get(n) });
    }
    return out;
  };
  const fields = () => TEMPLATE_FIELDS.filter((f) => state.headers[f] !== null);
  const headerOf = (f: TemplateField) => state.headers[f] ?? f;

  async function sendCsv(res: http.ServerResponse) {
    res.writeHead(200, { "content-type": "text/csv; charset=utf-8" });
    const d = state.delimiter;
    const line = (values: string[]) => values.map((v) => csvField(v, d)).join(d) + "\r\n";
    res.write((state.bom ? "\uFEFF" : "") + line(fields().map(headerOf)));
    state.rowsSent = 0;
    for (const row of rows()) {
      if (state.rowsSent === state.holdAfterRows) await new Promise<void>((resolve) => (release = resolve));
      // Waits for the reader to take what was sent: a slow reader slows the download.
      if (!res.write(line(fields().map((f) => row[f])))) await new Promise((resolve) => res.once("drain", resolve));
      state.rowsSent++;
    }
    res.end();
  }

  function sendJson(res: http.ServerResponse) {
    const offers = rows().map((row) => Object.fromEntries(fields().map((f) => [headerOf(f), row[f]])));
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(state.wrapJson ? { offers } : offers));
  }

  const server = http.createServer((req, res) => {
    state.requests++;
    state.authorizations.push(req.headers.authorization);
    const url = new URL(req.url ?? "/", "http://fake");
    if (req.method !== "GET") return res.writeHead(405).end();
    if (state.apiKey && req.headers.authorization !== `Bearer ${state.apiKey}`)
      return res.writeHead(401, { "content-type": "text/plain" }).end("Unauthorized");
    const fault = state.faults.shift();
    if (fault)
      return res
        .writeHead(fault.status, fault.retryAfter ? { "retry-after": fault.retryAfter } : {})
        .end(fault.status === 429 ? "Too many requests" : "Internal error");
    if (state.body !== undefined) return res.writeHead(200, { "content-type": "text/csv" }).end(state.body);
    if (url.pathname.endsWith(".json")) return sendJson(res);
    if (url.pathname.endsWith(".csv")) return void sendCsv(res).catch(() => res.destroy());
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    /** The CSV feed; `${url}.json` is the same offers as JSON. */
    url: `http://127.0.0.1:${port}/offers.csv`,
    jsonUrl: `http://127.0.0.1:${port}/offers.json`,
    state,
    /** The feed as CSV text, as it would be downloaded now (for uploads). */
    csv() {
      const d = state.delimiter;
      const line = (values: string[]) => values.map((v) => csvField(v, d)).join(d) + "\r\n";
      return (
        (state.bom ? "\uFEFF" : "") +
        [fields().map(headerOf), ...rows().map((r) => fields().map((f) => r[f]))].map(line).join("")
      );
    },
    /** Answers 429 (with Retry-After) or 500 before the next real answers. */
    fail(status: 429 | 500, times = 1, retryAfter?: string) {
      for (let i = 0; i < times; i++) state.faults.push({ status, retryAfter });
    },
    /** Lets a held download go on. */
    release: () => release(),
    close: () =>
      new Promise<void>((resolve) => {
        release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
