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
  method: "GET" | "POST";
  /** The route as Fastify registered it (params as `:name`). */
  path: string;
  body: BodyKind;
  /** Needs a signed-in user (Bearer token or session cookie). */
  login: boolean;
  /** The query parameters the route reads (besides `site`, read everywhere). */
  query: string[];
  /** The body fields the route reads, for `json` and `multipart` bodies. */
  fields: string[];
  /** Fields repeated in a multipart/form post. */
  multi?: string[];
};

const ANTIBOT = "g-recaptcha-response";

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
  { method: "GET", path: "/api/admin/reviews", body: "none", login: true, query: ["status", "page"], fields: [] },
  { method: "POST", path: "/api/admin/reviews/:id/hide", body: "json", login: true, query: [], fields: ["reason"] },
  { method: "POST", path: "/api/admin/reviews/:id/restore", body: "none", login: true, query: [], fields: [] },
  { method: "GET", path: "/api/admin/submissions", body: "none", login: true, query: ["status", "page"], fields: [] },
  { method: "GET", path: "/api/admin/inbox", body: "none", login: true, query: ["kind", "status", "page"], fields: [] },
  {
    method: "POST",
    path: "/api/admin/inbox/:kind/:id",
    body: "json",
    login: true,
    query: [],
    fields: ["updatedAt", "status", "note", "handledBy"],
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
  // Approved network logos (server/plugins/media.ts)
  { method: "GET", path: "/media/network-logos/:file", body: "none", login: false, query: [], fields: [] },
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
  // The review form on the network page.
  {
    module: "routes/networks/network.tsx",
    path: "/network/:id/:slug",
    login: true,
    fields: ["intent", "rating", "comment", ANTIBOT],
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
  { pattern: "advertise", query: [] },
  { pattern: "add-your-network", query: [] },
  { pattern: "contact", query: [] },
  { pattern: "links", query: ["page"] },
  { pattern: "faq", query: [] },
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
  for (const m of source.matchAll(/\bindex\(\s*"([^"]+)"/g)) add("", m[1]);
  for (const m of source.matchAll(/\broute\(\s*"([^"]*)"\s*,\s*"([^"]+)"/g)) add(m[1], m[2]);
  return entries;
}
