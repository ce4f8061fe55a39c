// The offer-search state has one codec: the strict payload schema, and a URL
// reader derived from it field by field that never fails a page.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  DEFAULT_TAB,
  OFFERS_MAX_PAGE,
  QUERY_MAX_LENGTH,
  offerSearchFromUrl,
  offerSearchPayload,
  offerSearchToUrl,
  type OfferSearch,
} from "./offers.ts";

const read = (query: string, fixed?: { ppc?: boolean }) => offerSearchFromUrl(new URLSearchParams(query), fixed);
const EMPTY: OfferSearch = {
  query: "",
  page: 1,
  sortBy: undefined,
  sortDesc: undefined,
  networks: [],
  countries: [],
  categories: [],
  ppc: undefined,
  mobile: undefined,
  selectedTab: DEFAULT_TAB,
};

describe("offerSearchFromUrl", () => {
  it("reads nothing as the empty search", () => expect(read("")).toEqual(EMPTY));

  it.each([
    ["1", 1],
    ["7", 7],
    ["40", 40],
    ["41", OFFERS_MAX_PAGE],
    ["1000000000", OFFERS_MAX_PAGE],
    ["99999999999999999999", OFFERS_MAX_PAGE],
    ["0", 1],
    ["-1", 1],
    ["abc", 1],
    ["1.5", 1],
    ["", 1],
  ])("reads page=%j as %j", (page, expected) => expect(read(`page=${encodeURIComponent(page)}`).page).toBe(expected));

  it("reads the first page value only", () => expect(read("page=3&page=5").page).toBe(3));

  it("reads search as the normalised query, cutting an over-long one to its first characters", () => {
    expect(read("search=%20%20Casino%20%20Bonus%20").query).toBe("casino bonus");
    expect(read(`search=${"A".repeat(QUERY_MAX_LENGTH + 50)}`).query).toBe("a".repeat(QUERY_MAX_LENGTH));
    expect(read("query=casino").query).toBe("");
  });

  it("keeps the good entries of a list and drops the bad ones", () => {
    const s = read("networks=3,x,0,-2,3,2147483648,5&networks=7&countries=us,USA,ca,1x,US&categories=,2,,2,abc");
    expect(s.networks).toEqual([3, 5, 7]);
    expect(s.countries).toEqual(["US", "CA"]);
    expect(s.categories).toEqual([2]);
  });

  it("keeps the first 100 distinct entries of a longer list", () => {
    const ids = Array.from({ length: 150 }, (_, i) => (i % 120) + 1);
    expect(read(`networks=${ids.join(",")}`).networks).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  });

  it("drops an unknown tab, sort or direction and keeps the known ones", () => {
    expect(read("selectedTab=bogus&sortBy=bogus&sortDesc=maybe")).toEqual(EMPTY);
    const s = read("selectedTab=newest&sortBy=payout&sortDesc=false");
    expect([s.selectedTab, s.sortBy, s.sortDesc]).toEqual(["newest", "payout", false]);
  });

  it("takes ppc from the page, never from the URL, and mobile from neither", () => {
    expect(read("ppc=true&mobile=true")).toEqual(EMPTY);
    expect(read("", { ppc: true }).ppc).toBe(true);
  });

  it("reads back what offerSearchToUrl writes", () => {
    const state: OfferSearch = {
      ...EMPTY,
      query: "solar panels",
      page: 4,
      sortBy: "name",
      sortDesc: true,
      networks: [4, 2],
      countries: ["US", "DE"],
      categories: [9],
      selectedTab: "highestPayout",
    };
    expect(offerSearchToUrl(state)).toBe(
      "selectedTab=highestPayout&search=solar+panels&page=4&networks=4%2C2&countries=US%2CDE&categories=9&sortBy=name&sortDesc=true",
    );
    expect(read(offerSearchToUrl(state))).toEqual(state);
  });

  it("never throws, and what it reads always passes the strict payload schema unchanged", () => {
    const names = [
      "search",
      "page",
      "sortBy",
      "sortDesc",
      "networks",
      "countries",
      "categories",
      "selectedTab",
      "ppc",
      "mobile",
      "x",
    ];
    const edgy = [
      "",
      "0",
      "-1",
      "41",
      "1e3",
      "abc",
      "1,2,,x",
      "US,usa",
      "topOffers",
      "payout",
      "true",
      "İ".repeat(QUERY_MAX_LENGTH),
      " 5 ",
    ];
    const value = fc.oneof(
      fc.constantFrom(...edgy),
      fc.string(),
      fc.string({ unit: "binary", maxLength: 300 }),
      fc.nat().map(String),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...names), value), { maxLength: 12 }),
        fc.option(fc.boolean(), { nil: undefined }),
        (pairs, ppc) => {
          const state = offerSearchFromUrl(new URLSearchParams(pairs), { ppc });
          expect(offerSearchPayload.parse(state)).toEqual(state);
        },
      ),
      { numRuns: 500 },
    );
  });
});
