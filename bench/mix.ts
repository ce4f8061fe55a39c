// The traffic the search benchmark replays: what affiliates type and tick.
// Mostly short vertical and brand words, some typos and half-typed words,
// filters alone and combined, other tabs, sorts and deeper pages.
import type { OfferSearchInput } from "#contracts/offers.ts";

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
