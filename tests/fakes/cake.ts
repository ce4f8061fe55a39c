// A local CAKE affiliate API for tests (and demos): `GET /affiliates/api/4/offers.asmx/OfferFeed`
// answering XML as CAKE does (api_key and affiliate_id in the query, start_at_row
// 1-based and row_limit, `<offer_feed_response>` with success, row_count and
// offers; a refused key or affiliate id and the rate limit ("Restricted") as
// `<success>false</success>` with a message, on HTTP 200). The catalogue is
// generated on demand (offer n is computed, never stored) and can be changed
// between runs; switches make it answer 429, 500 or "Restricted" a number of times first.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type FakeCakeOptions = {
  apiKey: string;
  /** The affiliate whose feed this is. */
  affiliateId?: string;
  /** Offers 1..count. */
  count: number;
};

type Fault = { status: 429 | 500 | "restricted"; retryAfter?: string };

export type FakeCake = Awaited<ReturnType<typeof startFakeCake>>;

export const CAKE_FEED_PATH = "/affiliates/api/4/offers.asmx/OfferFeed";
const VERTICALS = ["Finance", "Health & Beauty", "Sweepstakes", "Gaming"];
const COUNTRIES: [string, string][] = [
  ["US", "United States"],
  ["CA", "Canada"],
  ["GB", "United Kingdom"],
  ["DE", "Germany"],
  ["FR", "France"],
  ["AU", "Australia"],
  ["BR", "Brazil"],
];

const escape = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** A record as XML elements: objects nest, arrays repeat their element, the rest is escaped text. */
export function xmlOf(name: string, value: unknown): string {
  if (Array.isArray(value)) return value.map((v) => xmlOf(name, v)).join("");
  if (value === null || value === undefined) return `<${name}/>`;
  if (typeof value === "object")
    return `<${name}>${Object.entries(value)
      .map(([k, v]) => xmlOf(k, v))
      .join("")}</${name}>`;
  return `<${name}>${escape(String(value))}</${name}>`;
}

const money = (n: number) => n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Offer n as CAKE's OfferFeed describes it (the element `<offer>`'s fields). */
export function cakeOffer(n: number, version = 0): Record<string, unknown> {
  const kind = n % 4; // CPA in USD, RevShare, CPC in USD, CPA in EUR
  const amount = 10 + (n % 50) + version + (n % 7 === 0 ? 1000 : 0) + 0.5;
  const payout = [
    `$${money(amount)}`,
    `${5 + (n % 20) + version}%`,
    `$${money((10 + (n % 50) + version) / 10)}`,
    `€${money(amount)}`,
  ][kind];
  return {
    offer_id: n,
    offer_contract_id: 5000 + n,
    offer_name: `Fake CAKE Offer ${n}`,
    vertical_name: VERTICALS[n % 4],
    offer_status: n % 10 === 9 ? "Paused" : "Active",
    price_format: ["CPA", "RevShare", "CPC", "CPA"][kind],
    payout,
    description: `<p>Offer <b>${n}</b> &amp; friends</p>`,
    preview_link: `https://www.brand-${n}.example.net/landing?src=cake`,
    tracking_link: `https://track.example.net/?a=7&c=${n}&s1=secret`,
    allowed_countries: {
      country: [COUNTRIES[n % COUNTRIES.length], COUNTRIES[(n + 1) % COUNTRIES.length]].map(([code, name]) => ({
        country_code: code,
        country_name: name,
      })),
    },
  };
}

const response = (body: string) =>
  `<?xml version="1.0" encoding="utf-8"?>\n<offer_feed_response xmlns="http://cakemarketing.com/affiliates/api/4/">${body}</offer_feed_response>`;

export async function startFakeCake(options: FakeCakeOptions) {
  const state = {
    apiKey: options.apiKey,
    affiliateId: options.affiliateId ?? "7",
    count: options.count,
    /** Offers left out of the catalogue. */
    removed: new Set<number>(),
    /** Offers whose payout moved, by how much. */
    versions: new Map<number, number>(),
    /** Records answered instead of the generated offer n: an object (as elements) or raw XML for the whole `<offer>`. */
    overrides: new Map<number, unknown>(),
    /** Answers given before the real one, in order. */
    faults: [] as Fault[],
    requests: 0,
    /** row_limit of each page served. */
    pageSizes: [] as number[],
  };

  const listed = () => {
    const ids: number[] = [];
    for (let n = 1; n <= state.count; n++) if (!state.removed.has(n)) ids.push(n);
    return ids;
  };

  const server = http.createServer((req, res) => {
    state.requests++;
    const url = new URL(req.url ?? "/", "http://fake");
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "text/xml; charset=utf-8", ...headers });
      res.end(body);
    };
    const refuse = (message: string) => send(200, response(`<success>false</success><message>${message}</message>`));
    if (req.method !== "GET" || url.pathname !== CAKE_FEED_PATH) return send(404, "<h1>Not Found</h1>");
    const q = url.searchParams;
    if (q.get("api_key") !== state.apiKey) return refuse("Invalid API Key");
    if (q.get("affiliate_id") !== state.affiliateId) return refuse("Invalid Affiliate ID");
    const fault = state.faults.shift();
    if (fault?.status === "restricted") return refuse("Restricted");
    if (fault) return send(fault.status, "<h1>Error</h1>", fault.retryAfter ? { "retry-after": fault.retryAfter } : {});
    const startAtRow = Math.max(1, Number(q.get("start_at_row")) || 1);
    const rowLimit = Math.max(0, Number(q.get("row_limit")) || 0);
    state.pageSizes.push(rowLimit);
    const ids = listed();
    const rows = ids.slice(startAtRow - 1, rowLimit ? startAtRow - 1 + rowLimit : undefined);
    const offers = rows
      .map((n) => {
        const override = state.overrides.get(n);
        if (typeof override === "string") return override;
        return xmlOf("offer", state.overrides.has(n) ? override : cakeOffer(n, state.versions.get(n) ?? 0));
      })
      .join("");
    send(200, response(`<success>true</success><row_count>${ids.length}</row_count><offers>${offers}</offers>`));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    state,
    /** Answers 429 (with Retry-After), 500 or CAKE's in-body "Restricted" before the next real answers. */
    fail(status: Fault["status"], times = 1, retryAfter?: string) {
      for (let i = 0; i < times; i++) state.faults.push({ status, retryAfter });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
