// The traffic the search benchmark replays: what affiliates type and tick.
// Mostly short vertical and brand words, some typos and half-typed words,
// filters alone and combined, other tabs, sorts and deeper pages.
import { OFFER_TABS, offerSearchToUrl, type OfferSearchInput } from "#contracts/offers.ts";
import { VERTICALS } from "#db/seed/data.ts";
import { createRandom } from "#db/seed/random.ts";

export const SEARCH_MIX: OfferSearchInput[] = [
  {},
  { query: "casino" },
  { query: "keto" },
  { query: "insurance", countries: ["US"] },
  { query: "dating", selectedTab: "newest" },
  { query: "free trial" },
  { query: "loans", countries: ["US", "CA"] },
  { query: "solar" },
  { query: "insu" },
  { query: "vpn" },
  { query: "crypto", selectedTab: "highestPayout" },
  { query: "insurnce" },
  { query: "sweepstakes", mobile: true },
  { query: "auto insurance", ppc: true },
  { countries: ["US"] },
  { countries: ["GB", "IE"], selectedTab: "newest" },
  { categories: [7] },
  { categories: [1, 2], countries: ["US"] },
  { networks: [1, 2, 3] },
  { selectedTab: "payPerCall" },
  { selectedTab: "mobile", countries: ["US"] },
  { selectedTab: "highestPayout" },
  { selectedTab: "newest", page: 3 },
  { sortBy: "name" },
  { sortBy: "network" },
  { sortBy: "payout", sortDesc: false },
  { page: 2 },
  { query: "casino", page: 2 },
  { query: "medicare", selectedTab: "payPerCall" },
  { query: "skin care", countries: ["US"], categories: [3] },
  { selectedTab: "updated" },
  { selectedTab: "payoutIncreased", countries: ["US"] },
  { query: "casino", selectedTab: "updated" },
];

/** Home page addresses (server-rendered) for the page benchmark. */
export const PAGE_MIX: string[] = [
  "/?selectedTab=topOffers&search=&page=1",
  "/?selectedTab=topOffers&search=casino&page=1",
  "/?selectedTab=newest&search=keto&page=1&countries=US",
  "/?selectedTab=topOffers&search=&page=2&categories=7",
  "/?selectedTab=highestPayout&search=loans&page=1",
];

// ------------------------------------------------------------ unique searches
// The long tail no cache helps with: every search a different one, drawn from a
// seeded generator so two runs replay the same searches in the same order.

/** Words of the catalogue (vertical names and product forms of the seed data). */
const CATALOGUE_WORDS = [
  ...new Set(
    VERTICALS.flatMap((v) => [v.name, ...v.templates])
      .join(" ")
      .toLowerCase()
      .replace(/\{b\}/g, " ")
      .split(/[^a-z0-9+]+/)
      .filter((w) => w.length >= 3 && !/^\d+$/.test(w)),
  ),
];
/** What affiliates also type: service words, some of which no offer carries. */
const SERVICE_WORDS = ["cpa", "cpl", "revshare", "trial", "signup", "offer", "bonus", "deposit", "app", "install"];
/** Words no offer holds (a search with no match takes the close-spelling path). */
const ABSENT_WORDS = ["plumbing", "tractor", "quantum", "zyxel", "hovercraft", "origami", "saxophone", "kombucha"];
const COUNTRIES = ["US", "GB", "CA", "DE", "FR", "AU", "BR", "IN", "ES", "IT", "MX", "NL"];

/** A typo: one letter dropped or two neighbours swapped. */
function misspell(word: string, r: () => number): string {
  if (word.length < 5) return word;
  const i = 1 + Math.floor(r() * (word.length - 2));
  return r() < 0.5
    ? word.slice(0, i) + word.slice(i + 1)
    : word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
}

/**
 * `count` searches, different from one another: one to three words (mostly the
 * catalogue's, some misspelt, some no offer holds), every tab, pages 1–3, half of
 * them with a country, some with verticals or pay-per-call.
 */
export function uniqueSearches(count: number, seed = 16): OfferSearchInput[] {
  const { next: r, pick } = createRandom(seed);
  const seen = new Set<string>();
  const out: OfferSearchInput[] = [];
  while (out.length < count) {
    const words = Array.from({ length: 1 + Math.floor(r() * r() * 3) }, () => {
      const x = r();
      if (x < 0.6) return pick(CATALOGUE_WORDS);
      if (x < 0.75) return misspell(pick(CATALOGUE_WORDS), r);
      if (x < 0.9) return pick(SERVICE_WORDS);
      return pick(ABSENT_WORDS);
    });
    const search: OfferSearchInput = { query: words.join(" "), selectedTab: pick(OFFER_TABS) };
    const page = 1 + Math.floor(r() * 3);
    if (page > 1) search.page = page;
    if (r() < 0.5) search.countries = [...new Set(r() < 0.8 ? [pick(COUNTRIES)] : [pick(COUNTRIES), pick(COUNTRIES)])];
    if (r() < 0.15) search.categories = [1 + Math.floor(r() * 40)];
    if (r() < 0.15) search.ppc = true;
    const key = JSON.stringify(search);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(search);
  }
  return out;
}

/** The home page address of a search (pay-per-call ones on /pay-per-call-offers, which fixes ppc). */
export function searchPagePath(search: OfferSearchInput): string {
  const { ppc, ...rest } = search;
  const state = { query: "", page: 1, selectedTab: "topOffers" as const, ...rest };
  return `${ppc ? "/pay-per-call-offers" : "/"}?${offerSearchToUrl(state)}`;
}
