// The hostile-input suite's catalogue: every route the server answers, written
// out by hand so that a new route cannot slip past the suite unnoticed. Two
// tests keep it honest: one compares the API part with the routes Fastify
// actually registered (`printRoutes`), the other compares the page part with
// the React Router route table (app/routes.ts) and the modules that export an
// `action`.
import fs from "node:fs";
import path from "node:path";

type BodyKind = "json" | "multipart" | "none";

export type ApiEndpoint = {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The route as Fastify registered it (params as `:name`). */
  path: string;
  body: BodyKind;
  /** Needs a signed-in user (Bearer token or session cookie). */
  login: boolean;
  /** Needs an API key (the public API under /api/v1; sent as X-Api-Key). */
  key?: boolean;
  /** The query parameters the route reads (besides `site`, read everywhere). */
  query: string[];
  /** The body fields the route reads, for `json` and `multipart` bodies. */
  fields: string[];
  /** Fields repeated in a multipart/form post. */
  multi?: string[];
};

const ANTIBOT = "g-recaptcha-response";

/** The console's network and traffic source fields (server/api/admin/catalogue.ts). */
const NETWORK_FIELDS = [
  "name",
  "slug",
  "description",
  "logoUrl",
  "website",
  "featured",
  "paymentTerms",
  "paymentMethods",
  "minimumPayment",
  "trackingPlatform",
  "commissionTypes",
  "properties",
];
const TRAFFIC_SOURCE_FIELDS = [
  "name",
  "slug",
  "description",
  "website",
  "logoUrl",
  "featured",
  "adFormats",
  "pricingModels",
  "minimumDeposit",
  "geos",
];

/** The console's offer fields (server/api/admin/offers.ts). */
const OFFER_FIELDS = [
  "name",
  "networkId",
  "slug",
  "description",
  "previewUrl",
  "landingDomain",
  "externalId",
  "payoutType",
  "payoutAmount",
  "payoutPercent",
  "currency",
  "countries",
  "categoryIds",
  "mobile",
  "ppc",
  "allowedTraffic",
  "restrictedTraffic",
  "status",
  "sponsored",
  "sponsoredKeywords",
  "sponsoredFrom",
  "sponsoredUntil",
];

/** The console's house-ad fields (server/api/admin/ads.ts). */
const AD_FIELDS = [
  "size",
  "headline",
  "body",
  "imageUrl",
  "targetUrl",
  "startsOn",
  "endsOn",
  "weight",
  "siteId",
  "keywords",
];

/** Every route under /api plus the health checks, as server/api/*.ts registers them. */
export const API_ENDPOINTS: ApiEndpoint[] = [
  // Accounts (server/api/auth.ts, users.ts)
  {
    method: "POST",
    path: "/api/auth/register",
    body: "json",
    login: false,
    query: [],
    fields: ["name", "email", "password", "confirmPassword", "phone", "company", "messenger", "site", ANTIBOT],
  },
  {
    method: "POST",
    path: "/api/auth/login",
    body: "json",
    login: false,
    query: [],
    fields: ["email", "password", "remember", ANTIBOT],
  },
  { method: "POST", path: "/api/auth/logout", body: "json", login: false, query: [], fields: [] },
  {
    method: "POST",
    path: "/api/auth/forgot-password",
    body: "json",
    login: false,
    query: [],
    fields: ["email", ANTIBOT],
  },
  { method: "GET", path: "/api/auth/reset-password", body: "none", login: false, query: ["token"], fields: [] },
  {
    method: "POST",
    path: "/api/auth/reset-password",
    body: "json",
    login: false,
    query: [],
    fields: ["token", "password", "confirmPassword", ANTIBOT],
  },
  { method: "GET", path: "/api/users/profile", body: "none", login: true, query: [], fields: [] },
  // The account's API keys (server/api/account/api-keys.ts)
  { method: "GET", path: "/api/account/api-keys", body: "none", login: true, query: [], fields: [] },
  { method: "POST", path: "/api/account/api-keys", body: "json", login: true, query: [], fields: ["name"] },
  { method: "DELETE", path: "/api/account/api-keys/:id", body: "none", login: true, query: [], fields: [] },
  // A shared signed-in page's personal parts (server/api/account/personal.ts)
  {
    method: "GET",
    path: "/api/account/personal",
    body: "none",
    login: true,
    query: ["offerIds", "networkIds"],
    fields: [],
  },
  // The account's watchlist (server/api/account/watchlist.ts)
  { method: "GET", path: "/api/account/watchlist", body: "none", login: true, query: [], fields: [] },
  {
    method: "POST",
    path: "/api/account/watchlist",
    body: "json",
    login: true,
    query: [],
    fields: ["offerId", "networkId"],
  },
  { method: "DELETE", path: "/api/account/watchlist/:id", body: "none", login: true, query: [], fields: [] },
  // The account's saved searches and alerts (server/api/account/saved-searches.ts)
  { method: "GET", path: "/api/account/saved-searches", body: "none", login: true, query: [], fields: [] },
  {
    method: "POST",
    path: "/api/account/saved-searches",
    body: "json",
    login: true,
    query: [],
    fields: [
      "name",
      "alertFrequency",
      "query",
      "page",
      "sortBy",
      "sortDesc",
      "networks",
      "countries",
      "categories",
      "ppc",
      "mobile",
      "selectedTab",
    ],
  },
  { method: "GET", path: "/api/account/saved-searches/:id", body: "none", login: true, query: [], fields: [] },
  {
    method: "PATCH",
    path: "/api/account/saved-searches/:id",
    body: "json",
    login: true,
    query: [],
    fields: ["name", "alertFrequency"],
  },
  { method: "DELETE", path: "/api/account/saved-searches/:id", body: "none", login: true, query: [], fields: [] },
  { method: "GET", path: "/api/account/watchlist-alert", body: "none", login: true, query: [], fields: [] },
  {
    method: "PUT",
    path: "/api/account/watchlist-alert",
    body: "json",
    login: true,
    query: [],
    fields: ["alertFrequency"],
  },
  { method: "GET", path: "/api/ping", body: "none", login: false, query: [], fields: [] },
  // Networks and reviews (server/api/networks.ts)
  {
    method: "GET",
    path: "/api/networks",
    body: "none",
    login: false,
    query: ["featured", "search", "sort"],
    fields: [],
  },
  { method: "GET", path: "/api/top-networks", body: "none", login: false, query: [], fields: [] },
  { method: "GET", path: "/api/random-paid-networks", body: "none", login: false, query: [], fields: [] },
  { method: "GET", path: "/api/network-options", body: "none", login: false, query: [], fields: [] },
  { method: "GET", path: "/api/networks/legacy/:id", body: "none", login: false, query: [], fields: [] },
  { method: "GET", path: "/api/networks/:id/reviews", body: "none", login: false, query: ["page"], fields: [] },
  {
    method: "POST",
    path: "/api/networks/:id/reviews",
    body: "json",
    login: true,
    query: [],
    fields: ["site", "comment", "rating", ANTIBOT],
  },
  {
    method: "POST",
    path: "/api/networks/:id/reviews/:reviewId/report",
    body: "json",
    login: true,
    query: [],
    fields: ["reason", "comment"],
  },
  { method: "GET", path: "/api/networks/:id/join", body: "none", login: false, query: [], fields: [] },
  { method: "GET", path: "/api/networks/:id/:slug", body: "none", login: false, query: [], fields: [] },
  { method: "GET", path: "/api/networks/:slug", body: "none", login: false, query: [], fields: [] },
  // Traffic sources (server/api/traffic-sources.ts)
  { method: "GET", path: "/api/traffic-sources", body: "none", login: false, query: ["search"], fields: [] },
  { method: "GET", path: "/api/traffic-sources/legacy/:id", body: "none", login: false, query: [], fields: [] },
  { method: "GET", path: "/api/traffic-sources/:id", body: "none", login: false, query: [], fields: [] },
  // Offers (server/api/offers.ts)
  {
    method: "POST",
    path: "/api/offers/search",
    body: "json",
    login: false,
    query: [],
    fields: [
      "query",
      "page",
      "sortBy",
      "sortDesc",
      "networks",
      "countries",
      "categories",
      "ppc",
      "mobile",
      "selectedTab",
    ],
  },
  // The CSV export (server/api/export.ts): the home page's query parameters, plus ppc.
  {
    method: "GET",
    path: "/api/offers/export.csv",
    body: "none",
    login: true,
    query: ["search", "sortBy", "sortDesc", "networks", "countries", "categories", "ppc", "selectedTab", "page"],
    fields: [],
  },
  { method: "GET", path: "/api/offers/legacy/:id", body: "none", login: false, query: [], fields: [] },
  { method: "GET", path: "/api/offers/:id/:slug", body: "none", login: false, query: [], fields: [] },
  { method: "GET", path: "/api/offers/:slug", body: "none", login: false, query: [], fields: [] },
  { method: "GET", path: "/api/top-searches", body: "none", login: false, query: [], fields: [] },
  { method: "GET", path: "/api/verticals", body: "none", login: false, query: [], fields: [] },
  { method: "GET", path: "/api/offer-filters", body: "none", login: false, query: [], fields: [] },
  { method: "GET", path: "/api/top-categories", body: "none", login: false, query: [], fields: [] },
  // Lead forms (server/api/leads.ts)
  {
    method: "POST",
    path: "/api/add-your-network",
    body: "multipart",
    login: false,
    query: [],
    fields: [
      "networkName",
      "website",
      "country",
      "contactName",
      "email",
      "phone",
      "messenger",
      "description",
      "offerCount",
      "verticals",
      "trackingPlatform",
      "paymentFrequency",
      "paymentMethods",
      "minimumPayment",
      "commissionTypes",
      "site",
      ANTIBOT,
      "logo",
    ],
    multi: ["verticals", "paymentMethods", "commissionTypes"],
  },
  {
    method: "POST",
    path: "/api/advertisement-request",
    body: "json",
    login: false,
    query: [],
    fields: [
      "name",
      "email",
      "company",
      "website",
      "phone",
      "messenger",
      "placements",
      "budget",
      "message",
      "site",
      ANTIBOT,
    ],
  },
  {
    method: "POST",
    path: "/api/support/contact-us",
    body: "json",
    login: false,
    query: [],
    fields: ["name", "email", "topic", "subject", "message", "site", ANTIBOT],
  },
  // Sitemap-style links (server/api/links.ts)
  { method: "GET", path: "/api/links", body: "none", login: false, query: ["page"], fields: [] },
  // The operator console (server/api/admin/)
  {
    method: "GET",
    path: "/api/admin/audit",
    body: "none",
    login: true,
    query: ["page", "action", "subjectType", "actorId"],
    fields: [],
  },
  {
    method: "GET",
    path: "/api/admin/reviews",
    body: "none",
    login: true,
    query: ["status", "page", "sort", "dir"],
    fields: [],
  },
  { method: "POST", path: "/api/admin/reviews/:id/hide", body: "json", login: true, query: [], fields: ["reason"] },
  { method: "POST", path: "/api/admin/reviews/:id/restore", body: "none", login: true, query: [], fields: [] },
  { method: "POST", path: "/api/admin/reviews/:id/dismiss", body: "none", login: true, query: [], fields: [] },
  {
    method: "GET",
    path: "/api/admin/submissions",
    body: "none",
    login: true,
    query: ["status", "page", "sort", "dir"],
    fields: [],
  },
  {
    method: "GET",
    path: "/api/admin/inbox",
    body: "none",
    login: true,
    query: ["kind", "status", "page", "sort", "dir"],
    fields: [],
  },
  {
    method: "POST",
    path: "/api/admin/inbox/:kind/:id",
    body: "json",
    login: true,
    query: [],
    fields: ["updatedAt", "status", "note", "handledBy"],
  },
  { method: "GET", path: "/api/admin/tags", body: "none", login: true, query: [], fields: [] },
  {
    method: "PUT",
    path: "/api/admin/tags",
    body: "json",
    login: true,
    query: [],
    fields: ["updatedAt", "analyticsId", "pixelId", "gptNetworkCode", "gptSlots", "consentRequired"],
  },
  { method: "GET", path: "/api/admin/submissions/:id/logo", body: "none", login: true, query: [], fields: [] },
  { method: "POST", path: "/api/admin/submissions/:id/approve", body: "none", login: true, query: [], fields: [] },
  {
    method: "POST",
    path: "/api/admin/submissions/:id/reject",
    body: "json",
    login: true,
    query: [],
    fields: ["reason"],
  },
  {
    method: "POST",
    path: "/api/admin/submissions/:id/duplicate",
    body: "json",
    login: true,
    query: [],
    fields: ["networkId"],
  },
  {
    method: "GET",
    path: "/api/admin/offers",
    body: "none",
    login: true,
    query: ["page", "sort", "dir", "q", "networkId", "status", "sponsored"],
    fields: [],
  },
  { method: "POST", path: "/api/admin/offers", body: "json", login: true, query: [], fields: OFFER_FIELDS },
  { method: "GET", path: "/api/admin/offers/:id", body: "none", login: true, query: [], fields: [] },
  {
    method: "PUT",
    path: "/api/admin/offers/:id",
    body: "json",
    login: true,
    query: [],
    fields: [...OFFER_FIELDS, "updatedAt"],
  },
  {
    method: "POST",
    path: "/api/admin/offers/:id/retire",
    body: "json",
    login: true,
    query: [],
    fields: ["updatedAt"],
  },
  {
    method: "POST",
    path: "/api/admin/offers/:id/restore",
    body: "json",
    login: true,
    query: [],
    fields: ["updatedAt"],
  },
  // Accounts' roles and the dashboard (server/api/admin/users.ts, dashboard.ts)
  {
    method: "GET",
    path: "/api/admin/users",
    body: "none",
    login: true,
    query: ["page", "sort", "dir", "search", "role"],
    fields: [],
  },
  {
    method: "PUT",
    path: "/api/admin/users/:id/roles",
    body: "json",
    login: true,
    query: [],
    fields: ["roles", "updatedAt"],
  },
  { method: "GET", path: "/api/admin/dashboard", body: "none", login: true, query: ["days"], fields: [] },
  // Offer sources (server/api/admin/sources.ts)
  {
    method: "GET",
    path: "/api/admin/sources",
    body: "none",
    login: true,
    query: ["page", "sort", "dir", "networkId"],
    fields: [],
  },
  {
    method: "POST",
    path: "/api/admin/sources",
    body: "json",
    login: true,
    query: [],
    fields: ["networkId", "platform", "endpoint", "apiKey", "everyMinutes", "retireAfterRuns", "settings"],
  },
  { method: "GET", path: "/api/admin/sources/:id", body: "none", login: true, query: [], fields: [] },
  {
    method: "PUT",
    path: "/api/admin/sources/:id",
    body: "json",
    login: true,
    query: [],
    fields: ["updatedAt", "enabled", "everyMinutes", "retireAfterRuns", "endpoint", "apiKey", "settings"],
  },
  { method: "POST", path: "/api/admin/sources/:id/sync", body: "none", login: true, query: [], fields: [] },
  // The queue of platform categories (server/api/admin/platform-categories.ts)
  {
    method: "GET",
    path: "/api/admin/platform-categories",
    body: "none",
    login: true,
    query: ["page", "sort", "dir", "view", "platform", "search"],
    fields: [],
  },
  {
    method: "PUT",
    path: "/api/admin/platform-categories/:id",
    body: "json",
    login: true,
    query: [],
    fields: ["categoryId"],
  },
  {
    method: "POST",
    path: "/api/admin/platform-categories/:id/vertical",
    body: "json",
    login: true,
    query: [],
    fields: ["name"],
  },
  // The catalogue: networks, traffic sources, verticals (server/api/admin/catalogue.ts)
  ...(["networks", "traffic-sources"] as const).flatMap((kind): ApiEndpoint[] => {
    const fields = kind === "networks" ? NETWORK_FIELDS : TRAFFIC_SOURCE_FIELDS;
    const base = `/api/admin/${kind}`;
    return [
      {
        method: "GET",
        path: base,
        body: "none",
        login: true,
        query: ["page", "sort", "dir", "status", "search"],
        fields: [],
      },
      { method: "POST", path: base, body: "json", login: true, query: [], fields },
      { method: "GET", path: `${base}/:id`, body: "none", login: true, query: [], fields: [] },
      { method: "PUT", path: `${base}/:id`, body: "json", login: true, query: [], fields: [...fields, "updatedAt"] },
      { method: "POST", path: `${base}/:id/retire`, body: "json", login: true, query: [], fields: ["updatedAt"] },
      { method: "POST", path: `${base}/:id/restore`, body: "json", login: true, query: [], fields: ["updatedAt"] },
    ];
  }),
  {
    method: "GET",
    path: "/api/admin/verticals",
    body: "none",
    login: true,
    query: ["page", "sort", "dir", "search"],
    fields: [],
  },
  {
    method: "PUT",
    path: "/api/admin/verticals/:id",
    body: "json",
    login: true,
    query: [],
    fields: ["updatedAt", "name", "slug", "top"],
  },
  {
    method: "POST",
    path: "/api/admin/verticals/:id/merge",
    body: "json",
    login: true,
    query: [],
    fields: ["intoId", "updatedAt"],
  },
  // House ads (server/api/admin/ads.ts) and their public click and impression addresses (server/plugins/ads.ts)
  {
    method: "GET",
    path: "/api/admin/ads",
    body: "none",
    login: true,
    query: ["page", "size", "status", "sort", "dir"],
    fields: [],
  },
  { method: "POST", path: "/api/admin/ads", body: "json", login: true, query: [], fields: AD_FIELDS },
  { method: "GET", path: "/api/admin/ads/report", body: "none", login: true, query: ["from", "to"], fields: [] },
  { method: "GET", path: "/api/admin/ads/:id", body: "none", login: true, query: [], fields: [] },
  {
    method: "PUT",
    path: "/api/admin/ads/:id",
    body: "json",
    login: true,
    query: [],
    fields: [...AD_FIELDS, "updatedAt"],
  },
  { method: "POST", path: "/api/admin/ads/:id/retire", body: "json", login: true, query: [], fields: ["updatedAt"] },
  { method: "GET", path: "/ads/:id/click", body: "none", login: false, query: [], fields: [] },
  { method: "POST", path: "/ads/impressions", body: "json", login: false, query: [], fields: ["ads"] },
  // Swagger UI's files for /developers (server/plugins/api-docs.ts)
  { method: "GET", path: "/vendor/swagger-ui/:file", body: "none", login: false, query: [], fields: [] },
  // Approved network logos (server/plugins/media.ts)
  { method: "GET", path: "/media/network-logos/:file", body: "none", login: false, query: [], fields: [] },
  // The public read API (server/api/v1): keyed, except its OpenAPI document.
  { method: "GET", path: "/api/v1/openapi.json", body: "none", login: false, query: [], fields: [] },
  {
    method: "GET",
    path: "/api/v1/offers",
    body: "none",
    login: false,
    key: true,
    query: [
      "search",
      "selectedTab",
      "sortBy",
      "sortDesc",
      "networks",
      "countries",
      "categories",
      "ppc",
      "mobile",
      "cursor",
    ],
    fields: [],
  },
  { method: "GET", path: "/api/v1/offers/:id", body: "none", login: false, key: true, query: [], fields: [] },
  {
    method: "GET",
    path: "/api/v1/networks",
    body: "none",
    login: false,
    key: true,
    query: ["search", "limit", "cursor"],
    fields: [],
  },
  { method: "GET", path: "/api/v1/networks/:id", body: "none", login: false, key: true, query: [], fields: [] },
  {
    method: "GET",
    path: "/api/v1/traffic-sources",
    body: "none",
    login: false,
    key: true,
    query: ["search", "limit", "cursor"],
    fields: [],
  },
  {
    method: "GET",
    path: "/api/v1/verticals",
    body: "none",
    login: false,
    key: true,
    query: ["limit", "cursor"],
    fields: [],
  },
  // Health (server/api/health.ts)
  { method: "GET", path: "/healthz", body: "none", login: false, query: [], fields: [] },
  { method: "GET", path: "/readyz", body: "none", login: false, query: [], fields: [] },
];

/**
 * Routes that are not endpoints of their own: the API's catch-all (404 `{ message }`,
 * every method) and the React Router mount (every other path). Both are fuzzed
 * through unknown paths and methods.
 */
export const CATCH_ALL_ROUTES = [
  { methods: "ALL", path: "/api" },
  { methods: "ALL", path: "/api/*" },
  { methods: "GET,HEAD,POST,PUT,PATCH,DELETE", path: "/" },
  { methods: "GET,HEAD,POST,PUT,PATCH,DELETE", path: "/*" },
];

// ------------------------------------------------------------------ pages

export type PageAction = {
  /** The route module (app/routes/…) that exports the action. */
  module: string;
  /** A concrete URL to post to; `:id`/`:slug` are filled with a real network at run time. */
  path: string;
  /** The form fields the action reads. */
  fields: string[];
  multi?: string[];
  /** Fields posted as files. */
  files?: string[];
  /** The form the page renders is multipart (a file input). */
  multipart?: boolean;
  /** Needs a signed-in user (session cookie). */
  login?: boolean;
  /** Fields the page must never send back into the form (secrets). */
  secret: string[];
};

export const PAGE_ACTIONS: PageAction[] = [
  {
    module: "routes/account/login.tsx",
    path: "/login",
    fields: ["email", "password", "remember", "redirectTo", ANTIBOT],
    secret: ["password", ANTIBOT],
  },
  {
    module: "routes/account/register.tsx",
    path: "/register",
    fields: ["name", "email", "password", "confirmPassword", "phone", "company", "messenger", ANTIBOT],
    secret: ["password", "confirmPassword", ANTIBOT],
  },
  {
    module: "routes/account/forgot-password.tsx",
    path: "/forgot-password",
    fields: ["email", ANTIBOT],
    secret: [ANTIBOT],
  },
  {
    module: "routes/account/reset-password.tsx",
    path: "/reset-password",
    fields: ["token", "password", "confirmPassword", ANTIBOT],
    secret: ["token", "password", "confirmPassword", ANTIBOT],
  },
  {
    module: "routes/leads/contact.tsx",
    path: "/contact",
    fields: ["name", "email", "topic", "subject", "message", ANTIBOT],
    secret: [ANTIBOT],
  },
  {
    module: "routes/leads/advertise.tsx",
    path: "/advertise",
    fields: ["name", "email", "company", "website", "phone", "messenger", "placements", "budget", "message", ANTIBOT],
    multi: ["placements"],
    secret: [ANTIBOT],
  },
  {
    module: "routes/leads/add-your-network.tsx",
    path: "/add-your-network",
    multipart: true,
    fields: [
      "networkName",
      "website",
      "country",
      "offerCount",
      "trackingPlatform",
      "description",
      "verticals",
      "commissionTypes",
      "paymentFrequency",
      "minimumPayment",
      "paymentMethods",
      "contactName",
      "email",
      "phone",
      "messenger",
      ANTIBOT,
    ],
    multi: ["verticals", "commissionTypes", "paymentMethods"],
    files: ["logo"],
    secret: [ANTIBOT],
  },
  { module: "routes/account/logout.tsx", path: "/logout", fields: [], secret: [] },
  // The watchlist: its own unfollow buttons and every star's form without JavaScript.
  {
    module: "routes/account/watchlist.tsx",
    path: "/account/watchlist",
    login: true,
    fields: ["intent", "offerId", "networkId", "itemId", "redirectTo"],
    secret: [],
  },
  // Saved searches: save (from the search page), rename, frequency, delete, and the watchlist's alert.
  {
    module: "routes/account/searches.tsx",
    path: "/account/searches",
    login: true,
    fields: ["intent", "id", "name", "alertFrequency", "search", "path"],
    secret: [],
  },
  // An alert mail's one-click unsubscribe (a well-formed token that names nothing: 404).
  {
    module: "routes/unsubscribe.tsx",
    path: "/unsubscribe/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    fields: [],
    secret: [],
  },
  // The account's API keys: create (intent=create, name) and revoke (intent=revoke, id).
  {
    module: "routes/account/api-keys.tsx",
    path: "/account/api-keys",
    login: true,
    fields: ["intent", "name", "id"],
    secret: [],
  },
  // The console's offer forms.
  {
    module: "routes/admin/offers-new.tsx",
    path: "/admin/offers/new",
    login: true,
    fields: ["intent", ...OFFER_FIELDS],
    multi: ["countries", "categoryIds"],
    secret: [],
  },
  {
    module: "routes/admin/offers-edit.tsx",
    path: "/admin/offers/:id",
    login: true,
    fields: ["intent", ...OFFER_FIELDS, "updatedAt"],
    multi: ["countries", "categoryIds"],
    secret: [],
  },
  // The console's catalogue forms.
  ...(["networks", "traffic-sources"] as const).flatMap((kind): PageAction[] => {
    const fields =
      kind === "networks"
        ? [...NETWORK_FIELDS.filter((f) => f !== "properties"), "listed", "joiningLink", "paidAccount", "displayOrder"]
        : TRAFFIC_SOURCE_FIELDS;
    return [
      {
        module: `routes/admin/${kind}-new.tsx`,
        path: `/admin/${kind}/new`,
        login: true,
        fields: ["intent", ...fields],
        secret: [],
      },
      {
        module: `routes/admin/${kind}-edit.tsx`,
        path: `/admin/${kind}/:id`,
        login: true,
        fields: ["intent", ...fields, "updatedAt"],
        secret: [],
      },
    ];
  }),
  {
    module: "routes/admin/verticals-edit.tsx",
    path: "/admin/verticals/:id",
    login: true,
    fields: ["intent", "name", "slug", "top", "intoId", "updatedAt"],
    secret: [],
  },
  // The console's users page: one role form per account.
  {
    module: "routes/admin/users.tsx",
    path: "/admin/users",
    login: true,
    fields: ["intent", "id", "roles", "updatedAt"],
    multi: ["roles"],
    secret: [],
  },
  // The console's house-ad forms.
  {
    module: "routes/admin/ads.new.tsx",
    path: "/admin/ads/new",
    login: true,
    fields: ["intent", ...AD_FIELDS],
    secret: [],
  },
  {
    module: "routes/admin/ads.$id.tsx",
    path: "/admin/ads/:id",
    login: true,
    fields: ["intent", ...AD_FIELDS, "updatedAt"],
    secret: [],
  },
  // The console's third-party tags form.
  {
    module: "routes/admin/tags.tsx",
    path: "/admin/tags",
    login: true,
    fields: [
      "intent",
      "analyticsId",
      "pixelId",
      "gptNetworkCode",
      "consentRequired",
      "updatedAt",
      ...["728x90", "270x70", "250x250", "125x125", "370x165"].map((size) => `gptSlots.${size}`),
    ],
    secret: [],
  },
  // The console's moderation queues: decisions by intent, one record per form.
  {
    module: "routes/admin/submission.tsx",
    path: "/admin/submissions/:id",
    login: true,
    fields: ["intent", "reason", "networkId"],
    secret: [],
  },
  {
    module: "routes/admin/reviews.tsx",
    path: "/admin/reviews",
    login: true,
    fields: ["intent", "id", "reason"],
    secret: [],
  },
  {
    module: "routes/admin/inbox.tsx",
    path: "/admin/inbox",
    login: true,
    fields: ["intent", "id", "status", "note", "handledBy", "updatedAt"],
    secret: [],
  },
  // The console's offer sources: the add form (the API key is never sent back) and each row's switch.
  {
    module: "routes/admin/sources.tsx",
    path: "/admin/sources",
    login: true,
    fields: [
      "intent",
      "id",
      "networkId",
      "platform",
      "endpoint",
      "apiKey",
      "everyMinutes",
      "retireAfterRuns",
      "updatedAt",
      "enabled",
    ],
    secret: ["apiKey"],
  },
  // One source's page: "Sync now".
  { module: "routes/admin/source.tsx", path: "/admin/sources/:id", login: true, fields: ["intent"], secret: [] },
  // A feed source's page: the feed file upload (multipart) and the column mapping.
  {
    module: "routes/admin/source-feed.tsx",
    path: "/admin/sources/:id/feed",
    login: true,
    fields: [
      "intent",
      "updatedAt",
      "format",
      "delimiter",
      // The template's fields (core/supply/feed-template.ts).
      ...["external_id", "name", "description", "payout", "payout_type", "currency"].map((f) => `columns.${f}`),
      ...["countries", "verticals", "preview_url", "mobile", "pay_per_call"].map((f) => `columns.${f}`),
    ],
    files: ["file"],
    multipart: true,
    secret: [],
  },
  // The console's queue of platform categories: map, unmap or make a vertical, one category per form.
  {
    module: "routes/admin/categories.tsx",
    path: "/admin/categories",
    login: true,
    fields: ["intent", "id", "categoryId", "name"],
    secret: [],
  },
  // The review form on the network page, and each review's report form (intent=report).
  {
    module: "routes/networks/network.tsx",
    path: "/network/:id/:slug",
    login: true,
    fields: ["intent", "rating", "comment", "reviewId", "reason", ANTIBOT],
    secret: [ANTIBOT],
  },
];

export type PageRoute = {
  /** The route path as app/routes.ts writes it. */
  pattern: string;
  /** The query parameters its loader reads. */
  query: string[];
};

/** Every path of app/routes.ts with the query parameters its loader reads. */
export const PAGE_ROUTES: PageRoute[] = [
  {
    pattern: "",
    query: ["search", "selectedTab", "page", "networks", "countries", "categories", "sortBy", "sortDesc", "show"],
  },
  {
    pattern: "pay-per-call-offers",
    query: ["search", "selectedTab", "page", "networks", "countries", "categories", "sortBy", "sortDesc", "show"],
  },
  { pattern: "networks", query: ["search", "featured", "sort"] },
  { pattern: "traffic-sources", query: ["search"] },
  { pattern: "login", query: ["redirectTo"] },
  { pattern: "register", query: [] },
  { pattern: "forgot-password", query: [] },
  { pattern: "reset-password", query: ["token"] },
  { pattern: "account", query: [] },
  { pattern: "account/watchlist", query: [] },
  { pattern: "account/api-keys", query: [] },
  { pattern: "account/searches", query: [] },
  { pattern: "unsubscribe/:token", query: [] },
  { pattern: "advertise", query: [] },
  { pattern: "add-your-network", query: [] },
  { pattern: "contact", query: [] },
  { pattern: "links", query: ["page"] },
  { pattern: "faq", query: [] },
  { pattern: "developers", query: [] },
  { pattern: "privacy", query: [] },
  { pattern: "terms", query: [] },
  { pattern: "pay-per-call", query: [] },
  { pattern: "offer/:id?/:slug?", query: [] },
  { pattern: "compare", query: ["ids"] },
  { pattern: "network/:id?/:slug?", query: ["page", "reviewsPage"] },
  { pattern: "traffic-sources/details/:id", query: [] },
  { pattern: "logout", query: [] },
  { pattern: "affiliate-offers/details/offerId/:id?/:slug?", query: [] },
  { pattern: "affiliate-networks/profile/networkId/:id?/:slug?", query: [] },
  { pattern: "traffic/details/id/:id?", query: [] },
  { pattern: "robots.txt", query: [] },
  { pattern: "sitemap.xml", query: [] },
  { pattern: "sitemaps/:kind/:page", query: [] },
  { pattern: "feeds/offers.xml", query: ["vertical"] },
  // The console's moderation queues (under /admin).
  { pattern: "admin/submissions", query: ["page", "sort", "dir", "status"] },
  { pattern: "admin/submissions/:id", query: [] },
  { pattern: "admin/reviews", query: ["page", "sort", "dir", "status"] },
  { pattern: "admin/inbox", query: ["page", "sort", "dir", "kind", "status"] },
  // The console's offers (under /admin).
  { pattern: "admin/offers", query: ["page", "sort", "dir", "q", "networkId", "status", "sponsored"] },
  { pattern: "admin/offers/new", query: ["all"] },
  { pattern: "admin/offers/:id", query: ["all", "created"] },
  // The console's dashboard, users and audit log.
  { pattern: "admin", query: ["days"] },
  { pattern: "admin/users", query: ["page", "sort", "dir", "search", "role"] },
  { pattern: "admin/audit", query: ["page", "action", "subjectType", "actorId"] },
  // The console's catalogue (under /admin).
  { pattern: "admin/networks", query: ["page", "sort", "dir", "status", "search"] },
  { pattern: "admin/networks/new", query: [] },
  { pattern: "admin/networks/:id", query: ["created"] },
  { pattern: "admin/traffic-sources", query: ["page", "sort", "dir", "status", "search"] },
  { pattern: "admin/traffic-sources/new", query: [] },
  { pattern: "admin/traffic-sources/:id", query: ["created"] },
  { pattern: "admin/verticals", query: ["page", "sort", "dir", "search"] },
  { pattern: "admin/verticals/:id", query: ["merged"] },
  // The console's house ads (under /admin).
  { pattern: "admin/ads", query: ["page", "size", "status", "sort", "dir"] },
  { pattern: "admin/ads/new", query: [] },
  { pattern: "admin/ads/report", query: ["from", "to"] },
  { pattern: "admin/ads/:id", query: ["created"] },
  // The console's third-party tags (under /admin).
  { pattern: "admin/tags", query: [] },
  // The console's offer sources (under /admin).
  { pattern: "admin/sources", query: ["page", "sort", "dir", "networkId"] },
  { pattern: "admin/sources/:id", query: [] },
  { pattern: "admin/sources/:id/feed", query: [] },
  { pattern: "admin/categories", query: ["page", "sort", "dir", "view", "platform", "search"] },
  { pattern: "404", query: [] },
  { pattern: "*", query: [] },
];

// ------------------------------------------------------------------ reading the real tables

const ROOT = path.resolve(import.meta.dirname, "..", "..");

export type RegisteredRoute = { method: string; path: string };

/**
 * The routes Fastify registered, read from `printRoutes()` (the default, common-prefix
 * tree: each line's key continues its parent's path; `:a|:b` are two parameter names
 * at one position). `commonPrefix: false` is not used: it prints two wildcard routes
 * under one key and so hides one of them.
 */
export function parseRouteTree(tree: string): RegisteredRoute[] {
  const out: RegisteredRoute[] = [];
  const stack: string[] = [];
  for (const line of tree.split("\n")) {
    const m = /^((?:[│ ] {3})*)(?:├── |└── )(.*?)(?: \(([A-Z, -]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    stack.length = depth;
    stack.push(m[2]);
    if (!m[3]) continue;
    const full = stack.join("");
    for (const method of m[3].split(",").map((s) => s.trim())) out.push({ method, path: full });
  }
  return out;
}

/** `/api/networks/:id|:slug/:slug` → `/api/networks/:/:` — parameter names do not matter for coverage. */
export const normalizeRoute = (p: string) => p.replace(/:[^/]+/g, ":").replace(/\/+$/, "") || "/";

/** Files served by @fastify/static (each is a GET/HEAD route of its own). */
export function staticFiles(clientDir: string): Set<string> {
  const out = new Set<string>();
  const walk = (dir: string, prefix: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name), `${prefix}${entry.name}/`);
      else out.add(`${prefix}${entry.name}`);
    }
  };
  if (fs.existsSync(clientDir)) walk(clientDir, "/");
  return out;
}

export type RouteTableEntry = { pattern: string; module: string; hasAction: boolean };

/** The page routes of app/routes.ts, with whether each module exports an `action`. */
export function readRouteTable(): RouteTableEntry[] {
  const source = fs.readFileSync(path.join(ROOT, "app", "routes.ts"), "utf8");
  const entries: RouteTableEntry[] = [];
  const add = (pattern: string, module: string) => {
    const code = fs.readFileSync(path.join(ROOT, "app", module), "utf8");
    const hasAction = /export\s+(?:async\s+)?(?:function\s+action\b|const\s+action\b|\{[^}]*\baction\b[^}]*\})/.test(
      code,
    );
    entries.push({ pattern, module, hasAction });
  };
  // `prefix("admin", [ … ])` puts its segment before every route inside its brackets.
  const prefixes = [...source.matchAll(/\bprefix\(\s*"([^"]+)"\s*,\s*\[/g)].map((m) => {
    let depth = 0;
    let end = m.index + m[0].length - 1;
    for (; end < source.length; end++) {
      if (source[end] === "[") depth++;
      else if (source[end] === "]" && --depth === 0) break;
    }
    return { segment: m[1], start: m.index, end };
  });
  const prefixed = (at: number, pattern: string) => {
    const around = prefixes.filter((p) => p.start < at && at < p.end).map((p) => p.segment);
    return [...around, pattern].filter(Boolean).join("/");
  };
  for (const m of source.matchAll(/\bindex\(\s*"([^"]+)"/g)) add(prefixed(m.index, ""), m[1]);
  for (const m of source.matchAll(/\broute\(\s*"([^"]*)"\s*,\s*"([^"]+)"/g)) add(prefixed(m.index, m[1]), m[2]);
  return entries;
}
