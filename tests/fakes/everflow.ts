// A local Everflow affiliate API for tests (and demos): `GET /v1/affiliates/alloffers`
// with the documented shape (X-Eflow-API-Key, page/page_size, paging.total_count,
// offers with relationship.category, payouts and ruleset). The catalogue is
// generated on demand (offer n is computed, never stored) and can be changed
// between runs; switches make it answer 429 or 500 a number of times first.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type FakeEverflowOptions = {
  apiKey: string;
  /** Offers 1..count. */
  count: number;
};

type Fault = { status: 429 | 500; retryAfter?: string };

export type FakeEverflow = Awaited<ReturnType<typeof startFakeEverflow>>;

const CATEGORIES = ["Finance", "Health & Beauty", "Sweepstakes", "Gaming"];
const COUNTRIES = ["US", "CA", "GB", "DE", "FR", "AU", "BR"];

/** Offer n as Everflow's affiliate API describes it. */
export function everflowOffer(n: number, version = 0): Record<string, unknown> {
  const type = ["cpa", "cps", "cpc", "cpa_cps"][n % 4];
  return {
    network_offer_id: n,
    network_id: 7,
    name: `Fake Offer ${n}`,
    offer_status: n % 10 === 9 ? "paused" : "active",
    currency_id: n % 5 === 4 ? "EUR" : "USD",
    visibility: "public",
    html_description: `<p>Offer <b>${n}</b> &amp; friends</p>`,
    preview_url: `https://www.brand-${n}.example.com/landing?x=1`,
    tracking_url: `https://track.example.com/${n}?aff=secret`,
    time_saved: 1_700_000_000 + version,
    relationship: {
      offer_affiliate_status: "approved",
      category: { network_category_id: (n % 4) + 1, name: CATEGORIES[n % 4], status: "active" },
      payouts: {
        total: 1,
        entries: [
          {
            payout_type: type,
            payout_amount: type === "cps" ? 0 : 10 + (n % 50) + version,
            payout_percentage: type === "cps" || type === "cpa_cps" ? 5 + (n % 20) : 0,
          },
        ],
      },
      ruleset: {
        countries: [
          { country_code: COUNTRIES[n % COUNTRIES.length], targeting_type: "include", match_type: "exact" },
          { country_code: COUNTRIES[(n + 1) % COUNTRIES.length], targeting_type: "include", match_type: "exact" },
          { country_code: "CN", targeting_type: "exclude", match_type: "exact" },
        ],
      },
    },
  };
}

export async function startFakeEverflow(options: FakeEverflowOptions) {
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
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.method !== "GET" || url.pathname !== "/v1/affiliates/alloffers") return send(404, { error: "Not found" });
    if (req.headers["x-eflow-api-key"] !== state.apiKey) return send(401, { error: "Unauthorized" });
    const fault = state.faults.shift();
    if (fault) {
      return send(
        fault.status,
        { error: fault.status === 429 ? "Too many requests" : "Internal error" },
        fault.retryAfter ? { "retry-after": fault.retryAfter } : {},
      );
    }
    const page = Math.max(1, Number(url.searchParams.get("page")) || 1);
    const pageSize = Math.min(2000, Math.max(1, Number(url.searchParams.get("page_size")) || 50));
    state.pageSizes.push(pageSize);
    const ids = listed();
    const offers = ids
      .slice((page - 1) * pageSize, page * pageSize)
      .map((n) => (state.overrides.has(n) ? state.overrides.get(n) : everflowOffer(n, state.versions.get(n) ?? 0)));
    send(200, { offers, paging: { page, page_size: pageSize, total_count: ids.length } });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    state,
    /** Answers 429 (with Retry-After) or 500 before the next real answers. */
    fail(status: 429 | 500, times = 1, retryAfter?: string) {
      for (let i = 0; i < times; i++) state.faults.push({ status, retryAfter });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
