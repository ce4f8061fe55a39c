// A local Affise affiliate API for tests (and demos): `GET /3.0/partner/offers` with
// the documented shape (API-Key header, page/limit ≤ 500, pagination.next_page,
// offers with payments, full_categories, targeting, sources, cr/epc) and the
// documented error envelope `{ status: 2, message }`. The catalogue is generated on
// demand (offer n is computed, never stored) and can be changed between runs;
// switches make it answer 429, 500 or a 200 carrying a rate-limit error first.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type FakeAffiseOptions = {
  apiKey: string;
  /** Offers 1..count. */
  count: number;
};

/** 429 and 500 as HTTP statuses; "limit" a 200 whose body is Affise's error envelope about a rate limit. */
type Fault = { status: 429 | 500 | "limit"; retryAfter?: string };

export type FakeAffise = Awaited<ReturnType<typeof startFakeAffise>>;

const CATEGORIES = ["Finance", "Dating", "Sweepstakes", "Gaming"];
const COUNTRIES = ["US", "CA", "GB", "DE", "FR", "AU", "BR"];
const hex = (n: number) => n.toString(16).padStart(24, "0");

/**
 * Offer n as Affise's partner API describes it. Payment types cycle through fixed
 * (CPA), percent (CPS), cpc and fixed on an is_cpi offer (CPI); every fifth pays in
 * EUR; even offers add a second, lower fixed payment in one more country.
 */
export function affiseOffer(n: number, version = 0): Record<string, unknown> {
  const kind = n % 4;
  const type = ["fixed", "percent", "cpc", "fixed"][kind];
  const currency = n % 5 === 4 ? "eur" : "usd";
  const revenue = type === "percent" ? 5 + (n % 20) + version : 10 + (n % 50) + version;
  const payments: Record<string, unknown>[] = [
    {
      countries: [COUNTRIES[n % COUNTRIES.length], COUNTRIES[(n + 1) % COUNTRIES.length]],
      cities: [],
      devices: [],
      os: [],
      goal: "1",
      revenue,
      currency,
      title: "",
      type,
      country_exclude: false,
    },
  ];
  if (n % 2 === 0)
    payments.push({
      countries: [COUNTRIES[(n + 2) % COUNTRIES.length]],
      cities: [],
      devices: [],
      os: [],
      goal: "2",
      revenue: 1,
      currency,
      title: "Second goal",
      type: "fixed",
      country_exclude: false,
    });
  return {
    id: n,
    offer_id: hex(n),
    bundle_id: hex(1000 + n),
    title: `Fake Affise Offer ${n}`,
    preview_url: `https://www.shop-${n}.example.org/promo?src=aff`,
    description_lang: { en: `<p>Offer <b>${n}</b> &amp; more</p>`, ru: "" },
    cr: 1.5 + (n % 7),
    epc: 0.05 * (n % 9),
    logo: `https://fake-affise.example/logos/${n}.png`,
    sources: [
      { id: hex(1), title: "Web sites", allowed: 1 },
      { id: hex(2), title: "Incentive", allowed: 0 },
    ],
    categories: [hex(50 + (n % 4))],
    full_categories: [{ id: hex(50 + (n % 4)), title: CATEGORIES[n % 4] }],
    payments,
    caps: [],
    stop_at: "",
    required_approval: n % 3 === 0,
    is_cpi: kind === 3,
    creatives: [],
    landings: [],
    links: [
      { id: null, title: null, hash: null, url: `https://track.fake-affise.example/click?pid=610&offer_id=${n}` },
    ],
    link: `https://track.fake-affise.example/click?pid=610&offer_id=${n}`,
    targeting: [{ name: "default targeting", condition: "and", country: { allow: [], deny: ["CN"] } }],
  };
}

export async function startFakeAffise(options: FakeAffiseOptions) {
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
    /** A refused key answered with a 200 and the error envelope instead of the documented 401. */
    refuseKeyWith200: false,
    requests: 0,
    /** The `limit` of each page asked for. */
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
    if (req.method !== "GET" || url.pathname !== "/3.0/partner/offers")
      return send(404, { status: 2, error: "Page Not Found" });
    if (req.headers["api-key"] !== state.apiKey)
      return send(state.refuseKeyWith200 ? 200 : 401, { status: 2, message: "Token is necessary" });
    const fault = state.faults.shift();
    if (fault) {
      const headers: Record<string, string> = fault.retryAfter ? { "retry-after": fault.retryAfter } : {};
      if (fault.status === "limit") return send(200, { status: 2, message: "Rate limit exceeded" }, headers);
      const message = fault.status === 429 ? "Too Many Requests" : "Server error, Please contact your administrator";
      return send(fault.status, { status: 2, message }, headers);
    }
    const page = Math.max(1, Number(url.searchParams.get("page")) || 1);
    const limit = Math.min(500, Math.max(1, Number(url.searchParams.get("limit")) || 100));
    state.pageSizes.push(limit);
    const ids = listed();
    const offers = ids
      .slice((page - 1) * limit, page * limit)
      .map((n) => (state.overrides.has(n) ? state.overrides.get(n) : affiseOffer(n, state.versions.get(n) ?? 0)));
    const pagination: Record<string, number> = { per_page: limit, total_count: ids.length, page };
    if (page * limit < ids.length) pagination.next_page = page + 1;
    send(200, { status: 1, offers, pagination });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    state,
    /** Answers 429 (with Retry-After), 500 or a 200 rate-limit error before the next real answers. */
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
