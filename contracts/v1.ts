// The public read API (/api/v1, issue #14): every query and answer as a zod schema.
// The routes parse what they send through these schemas and core/api/openapi.ts builds
// the published OpenAPI document from them, so the document cannot drift from the wire.
// Queries reuse the site's own contracts (the offer search payload); answers are the
// public subset of the site's answer types, checked against them at compile time.
import { z } from "zod";
import "zod-openapi"; // the OpenAPI fields of .meta()
import { DEFAULT_SORT_DESC, OFFER_TABS, QUERY_MAX_LENGTH, type OfferSort } from "./offers.ts";
import { V1_DEFAULT_LIMIT, V1_MAX_LIMIT } from "./v1-docs.ts";

export { V1_DEFAULT_LIMIT, V1_MAX_LIMIT };
/** A key's requests are counted per window of this many seconds. */
export const V1_RATE_WINDOW_SECONDS = 60;

const OFFER_SORTS = Object.keys(DEFAULT_SORT_DESC) as [OfferSort, ...OfferSort[]];

// ---------------------------------------------------------------- errors and headers

export const v1Error = z
  .object({ message: z.string() })
  .meta({ id: "Error", description: "Every refusal: a 4xx status and a sentence saying why." });

export const rateLimitHeaders = z.object({
  "RateLimit-Limit": z.string().meta({ description: "Requests this key may make per window." }),
  "RateLimit-Remaining": z.string().meta({ description: "Requests left in the current window." }),
  "RateLimit-Reset": z.string().meta({ description: "Seconds until the window starts again." }),
});

// ---------------------------------------------------------------- queries

const cursorParam = z
  .string()
  .max(500)
  .optional()
  .meta({ description: "The `next` cursor of the previous page; absent for the first page." });

const limitParam = z
  .string()
  .regex(/^\d+$/, "limit must be a whole number")
  .optional()
  .meta({ description: `Items per page, 1 to ${V1_MAX_LIMIT} (default ${V1_DEFAULT_LIMIT}).` });

const listText = (what: string) =>
  z
    .string()
    .max(2000)
    .optional()
    .meta({ description: `Comma-separated ${what}.` });

/**
 * GET /api/v1/offers: the home page's query parameters. The route hands them to the
 * offer search payload of POST /api/offers/search (contracts/offers.ts), strictly:
 * a bad value answers 400 where the site's pages would drop it.
 */
export const v1OfferSearchQuery = z.object({
  search: z.string().max(QUERY_MAX_LENGTH).optional().meta({ description: "Search text (name, network, vertical)." }),
  selectedTab: z.enum(OFFER_TABS).optional().meta({ description: "The search page's tab (default topOffers)." }),
  sortBy: z.enum(OFFER_SORTS).optional(),
  sortDesc: z.enum(["true", "false"]).optional(),
  networks: listText("network ids"),
  countries: listText("two-letter country codes"),
  categories: listText("vertical ids"),
  ppc: z.enum(["true", "false"]).optional().meta({ description: "Pay-per-call offers only." }),
  mobile: z.enum(["true", "false"]).optional().meta({ description: "Mobile offers only." }),
  cursor: cursorParam,
});

/** GET /api/v1/networks, /traffic-sources, /verticals: name order, keyset pages. */
export const v1ListQuery = z.object({
  search: z.string().max(200).optional().meta({ description: "Only names containing this text." }),
  limit: limitParam,
  cursor: cursorParam,
});
export const v1VerticalQuery = v1ListQuery.omit({ search: true });

export const v1IdParams = z.object({
  id: z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/, "id must be a positive whole number")
    .meta({ description: "The id the lists give." }),
});

// ---------------------------------------------------------------- answers

const next = z
  .string()
  .nullable()
  .meta({ description: 'Cursor of the next page (also in the `Link: <…>; rel="next"` header); null on the last.' });

const currency = z
  .object({ code: z.string(), symbol: z.string(), decimalDigits: z.number().int(), rounding: z.number() })
  .meta({ id: "Currency" });

const v1OfferListItem = z
  .object({
    id: z.number().int(),
    slug: z.string(),
    name: z.string(),
    networkId: z.number().int(),
    networkSlug: z.string(),
    networkName: z.string(),
    payoutAmount: z.number().nullable(),
    payoutPercent: z.number().nullable(),
    payoutType: z.string(),
    currency,
    countries: z.array(z.string()).meta({ description: "Two-letter country codes." }),
    categories: z.array(z.string()).meta({ description: "Vertical names." }),
    sponsored: z.boolean(),
    mobile: z.boolean(),
    ppc: z.boolean(),
    createdAt: z.string().meta({ format: "date-time" }),
  })
  .meta({ id: "OfferListItem" });

export const v1OfferList = z
  .object({
    offers: z.array(v1OfferListItem),
    total: z.number().int().meta({ description: "Matches, counted up to 1,000 (see totalCapped)." }),
    totalCapped: z.boolean(),
    next,
  })
  .meta({ id: "OfferList" });

const historyPoint = z.object({
  at: z.string().meta({ format: "date-time" }),
  payout: z.number().nullable(),
  payoutPercent: z.number().nullable(),
  currency,
  payoutType: z.string(),
  status: z.string(),
});

const v1Offer = z
  .object({
    id: z.number().int(),
    slug: z.string(),
    name: z.string(),
    description: z.string(),
    previewUrl: z.string().nullable(),
    landingDomain: z.string().nullable(),
    payoutAmount: z.number().nullable(),
    payoutPercent: z.number().nullable(),
    payoutUsd: z.number().nullable(),
    payoutType: z.string(),
    currency,
    countries: z.array(z.object({ code: z.string(), name: z.string() })),
    categories: z.array(z.object({ id: z.number().int(), slug: z.string(), name: z.string() })),
    mobile: z.boolean(),
    ppc: z.boolean(),
    allowedTraffic: z.array(z.string()),
    restrictedTraffic: z.array(z.string()),
    sponsored: z.boolean(),
    status: z.string(),
    createdAt: z.string().meta({ format: "date-time" }),
    updatedAt: z.string().meta({ format: "date-time" }),
    network: z.object({
      id: z.number().int(),
      slug: z.string(),
      name: z.string(),
      avgRating: z.number(),
      reviewCount: z.number().int(),
    }),
    payoutHistory: z.array(historyPoint).meta({ description: "Changes of payout, type or status, oldest first." }),
  })
  .meta({ id: "Offer" });

export const v1OfferAnswer = z.object({ offer: v1Offer });

const v1Network = z
  .object({
    id: z.number().int(),
    name: z.string(),
    slug: z.string(),
    logoUrl: z.string().nullable(),
    avgRating: z.number(),
    reviewCount: z.number().int(),
    trustScore: z.number(),
    featured: z.boolean(),
    paymentTerms: z.string().nullable(),
    joiningLink: z.string().nullable(),
    offerCount: z.number().int(),
  })
  .meta({ id: "Network" });

export const v1NetworkList = z.object({ networks: z.array(v1Network), next }).meta({ id: "NetworkList" });

const v1ReviewsSummary = z
  .object({
    avgRating: z.number(),
    reviewCount: z.number().int(),
    trustScore: z.number(),
    distribution: z.object({
      "1": z.number().int(),
      "2": z.number().int(),
      "3": z.number().int(),
      "4": z.number().int(),
      "5": z.number().int(),
    }),
  })
  .meta({
    id: "ReviewsSummary",
    description: "Published reviews: the average, the count and how many gave each star.",
  });

const v1NetworkDetail = v1Network
  .extend({
    description: z.string(),
    website: z.string().nullable(),
    paymentMethods: z.array(z.string()),
    minimumPayment: z.number().nullable(),
    trackingPlatform: z.string().nullable(),
    commissionTypes: z.array(z.string()),
    reviews: v1ReviewsSummary,
  })
  .meta({ id: "NetworkDetail" });

export const v1NetworkAnswer = z.object({ network: v1NetworkDetail });

const v1TrafficSource = z
  .object({
    id: z.number().int(),
    name: z.string(),
    slug: z.string(),
    description: z.string(),
    website: z.string().nullable(),
    logoUrl: z.string().nullable(),
    featured: z.boolean(),
    adFormats: z.array(z.string()),
    pricingModels: z.array(z.string()),
    minimumDeposit: z.number().nullable(),
    geos: z.array(z.string()),
  })
  .meta({ id: "TrafficSource" });

export const v1TrafficSourceList = z
  .object({ trafficSources: z.array(v1TrafficSource), next })
  .meta({ id: "TrafficSourceList" });

const v1Vertical = z.object({ id: z.number().int(), slug: z.string(), name: z.string() }).meta({ id: "Vertical" });

export const v1VerticalList = z.object({ verticals: z.array(v1Vertical), next }).meta({ id: "VerticalList" });
