// A local TUNE (HasOffers) affiliate API for tests (and demos): `GET /Apiv3/json`
// with Target=Affiliate_Offer, Method=findAll, api_key, limit/page and contain[]
// (OfferCategory, Country), answering the documented envelope `{ request, response:
// { status, httpStatus, data: { page, current, count, pageCount, data: { [id]: {
// Offer, OfferCategory, Country } } }, errors, errorMessage } }`. A wrong key and a
// rate limit are answered as HasOffers does: HTTP 200, status -1, `errors`. The
// catalogue is generated on demand (offer n is computed, never stored) and can be
// changed between runs; switches make it answer 429, 500 or its in-body rate limit first.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type FakeTuneOptions = {
  apiKey: string;
  /** Offers 1..count. */
  count: number;
};

type Fault = { status: 429 | 500 | "rate-limit"; retryAfter?: string };

export type FakeTune = Awaited<ReturnType<typeof startFakeTune>>;

const CATEGORIES = ["Finance", "Health & Beauty", "Sweepstakes", "Gaming"];
/** HasOffers' own country codes: the United Kingdom is "UK". */
const COUNTRIES = ["US", "CA", "UK", "DE", "FR", "AU", "BR"];
const PAYOUT_TYPES = ["cpa_flat", "cpa_percentage", "cpc", "cpa_both"];

/** Offer n as TUNE's Affiliate_Offer::findAll returns it (with OfferCategory and Country contained). */
export function tuneOffer(n: number, version = 0): Record<string, unknown> {
  const type = PAYOUT_TYPES[n % 4];
  const flat = type !== "cpa_percentage";
  const percent = type === "cpa_percentage" || type === "cpa_both";
  const category = (n % 4) + 1;
  const country = (i: number) => COUNTRIES[i % COUNTRIES.length];
  return {
    Offer: {
      id: String(n),
      name: `Fake Offer ${n}`,
      description: `<p>Offer <b>${n}</b> &amp; friends</p>`,
      require_approval: n % 3 === 0 ? "1" : "0",
      preview_url: `https://www.brand-${n}.example.com/landing?x=1`,
      currency: n % 5 === 4 ? "EUR" : "USD",
      // HasOffers sends numbers as strings.
      default_payout: flat ? (10 + (n % 50) + version).toFixed(2) : "0.00",
      percent_payout: percent ? (5 + (n % 20)).toFixed(2) : null,
      payout_type: type,
      status: n % 10 === 9 ? "paused" : "active",
      expiration_date: "2099-12-31",
      modified: `2026-01-01 00:00:${String(version % 60).padStart(2, "0")}`,
    },
    OfferCategory: { [category]: { id: String(category), name: CATEGORIES[n % 4] } },
    Country: Object.fromEntries([country(n), country(n + 1)].map((code) => [code, { code, name: `Country ${code}` }])),
  };
}

export async function startFakeTune(options: FakeTuneOptions) {
  const state = {
    apiKey: options.apiKey,
    count: options.count,
    /** Offers left out of the catalogue. */
    removed: new Set<number>(),
    /** Offers whose payout moved, by how much. */
    versions: new Map<number, number>(),
    /** Records answered as they are, replacing the generated offer n. */
    overrides: new Map<number, unknown>(),
    /** Answers given before the real one, in order. */
    faults: [] as Fault[],
    requests: 0,
    /** The limit of each page asked for. */
    pageSizes: [] as number[],
    /** The query of the last answered page (api_key included: the fake is local). */
    lastQuery: new URLSearchParams(),
  };

  const listed = () => {
    const ids: number[] = [];
    for (let n = 1; n <= state.count; n++) if (!state.removed.has(n)) ids.push(n);
    return ids;
  };

  const server = http.createServer((req, res) => {
    state.requests++;
    const url = new URL(req.url ?? "/", "http://fake");
    const q = url.searchParams;
    const request = {
      Target: q.get("Target"),
      Format: "json",
      Service: "HasOffers",
      Version: "2",
      Method: q.get("Method"),
    };
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    };
    const answer = (data: unknown) =>
      send(200, { request, response: { status: 1, httpStatus: 200, data, errors: [], errorMessage: null } });
    const refuse = (message: string) =>
      send(200, {
        request,
        response: {
          status: -1,
          httpStatus: 200,
          data: "",
          errors: [{ publicMessage: message }],
          errorMessage: message,
        },
      });

    if (req.method !== "GET" || url.pathname !== "/Apiv3/json") return send(404, { error: "Not found" });
    if (q.get("api_key") !== state.apiKey) return refuse("Invalid API key provided");
    if (q.get("Target") !== "Affiliate_Offer" || q.get("Method") !== "findAll")
      return refuse(`Method ${q.get("Target")}::${q.get("Method")} does not exist`);
    const fault = state.faults.shift();
    if (fault?.status === "rate-limit") return refuse("API usage exceeded rate limit. Please wait and try again.");
    if (fault)
      return send(
        fault.status,
        { error: fault.status === 429 ? "Too many requests" : "Internal error" },
        fault.retryAfter ? { "retry-after": fault.retryAfter } : {},
      );

    state.lastQuery = q;
    const page = Math.max(1, Number(q.get("page")) || 1);
    const ids = listed();
    const limit = Number(q.get("limit")) || 0;
    // Without a limit HasOffers answers everything at once; the fake keeps to pages.
    const pageSize = limit > 0 ? Math.min(limit, 10_000) : Math.max(ids.length, 1);
    state.pageSizes.push(pageSize);
    const slice = ids.slice((page - 1) * pageSize, page * pageSize);
    const records = Object.fromEntries(
      slice.map((n) => [
        String(n),
        state.overrides.has(n) ? state.overrides.get(n) : tuneOffer(n, state.versions.get(n) ?? 0),
      ]),
    );
    answer({
      page,
      current: slice.length,
      count: ids.length,
      pageCount: Math.ceil(ids.length / pageSize),
      // PHP serialises an empty map as an empty list.
      data: slice.length ? records : [],
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    state,
    /** Answers 429 (with Retry-After), 500, or HasOffers' in-body rate limit before the next real answers. */
    fail(status: 429 | 500 | "rate-limit", times = 1, retryAfter?: string) {
      for (let i = 0; i < times; i++) state.faults.push({ status, retryAfter });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
