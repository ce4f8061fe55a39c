// Hostile-input suite, API half ("Hardening" issue): property-based inputs
// (fast-check) and a table of known payloads against every endpoint of
// server/api/*.ts and the health checks, through `inject` (plus a raw socket
// for what only the HTTP parser sees). Invariants: see harness.ts.
//
//   npx vitest run tests/fuzz                      quick (part of `npm test`)
//   npm run test:fuzz                              FUZZ=full: ≥ 10,000 inputs across both files
//   FUZZ_SEED=123 npx vitest run tests/fuzz        another seed (the default is fixed)
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { BUILD_DIR } from "#server/app.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { GOOD_LOGO, TEXT_AS_PNG, SVG_LOGO } from "../fixtures/images.ts";
import {
  API_ENDPOINTS,
  CATCH_ALL_ROUTES,
  normalizeRoute,
  parseRouteTree,
  staticFiles,
  type ApiEndpoint,
} from "./catalogue.ts";
import {
  FUZZ_ENV,
  M,
  MarkerBag,
  checkProperty,
  processEvents,
  runs,
  send,
  sendAndCheck,
  stats,
  summary,
  watchProcess,
  type EchoPolicy,
  type FuzzRequest,
} from "./harness.ts";
import {
  CONTENT_TYPES,
  boundaryArb,
  headerSafe,
  breakArb,
  brokenMultipart,
  buildMultipart,
  encodeForm,
  headerArb,
  hostileKey,
  hostileText,
  jsonValueJunk,
  longText,
  longTextBetween,
  markerBase,
  pctEncode,
  queryArb,
  rawJsonArb,
  renderHeaders,
  renderPath,
  renderQuery,
  request,
  segmentArb,
  setOwn,
  wtf8,
  type Part,
} from "./arbitraries.ts";

const PASSWORD = "Plenty-of-Entropy-2009!";
const API_BODY_LIMIT = 256 * 1024;

let t: TestApp;
let dataDir: string;
let stopWatching: () => void;

type Real = {
  network: { id: number; slug: string; legacyId: number | null };
  offer: { id: number; slug: string; legacyId: number | null };
  trafficSource: { id: number; legacyId: number | null };
  options: {
    verticals: string[];
    trackingPlatforms: string[];
    paymentFrequencies: string[];
    paymentMethods: string[];
    commissionTypes: string[];
  };
  user: { email: string; token: string };
  /** The fuzz user's key for the public API. */
  apiKey: string;
};
let real: Real;

beforeAll(async () => {
  stats.file = "api";
  stopWatching = watchProcess();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "oa-fuzz-api-"));
  t = await createTestApp({
    seed: { networks: 6, offers: 60, trafficSources: 3 },
    env: { ...FUZZ_ENV, DATA_DIR: dataDir },
  });
  const one = async <T>(q: ReturnType<typeof sql>) => (await t.db.query<T>(q))[0];
  const network = await one<{ id: number; slug: string; legacy_id: number | null }>(
    sql`SELECT id, slug, legacy_id FROM networks ORDER BY legacy_id NULLS LAST, id LIMIT 1`,
  );
  const offer = await one<{ id: number; slug: string; legacy_id: number | null }>(
    sql`SELECT id, slug, legacy_id FROM offers ORDER BY legacy_id NULLS LAST, id LIMIT 1`,
  );
  const ts = await one<{ id: number; legacy_id: number | null }>(
    sql`SELECT id, legacy_id FROM traffic_sources ORDER BY legacy_id NULLS LAST, id LIMIT 1`,
  );
  const options = (await t.app.inject("/api/network-options")).json() as Real["options"];
  const email = `fuzz-api-${Date.now()}@example.com`;
  const reg = await t.app.inject({
    method: "POST",
    url: "/api/auth/register",
    remoteAddress: "10.255.0.1",
    payload: { name: "Fuzz Tester", email, password: PASSWORD, confirmPassword: PASSWORD },
  });
  expect(reg.statusCode, reg.body).toBe(201);
  // An admin, so hostile input reaches the console's handlers past their role check.
  await t.db.query(sql`UPDATE users SET scope = '{admin}' WHERE email_key = ${email}`);
  const login = await t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    remoteAddress: "10.255.0.1",
    payload: { email, password: PASSWORD },
  });
  expect(login.statusCode, login.body).toBe(200);
  real = {
    network: { id: network.id, slug: network.slug, legacyId: network.legacy_id },
    offer: { id: offer.id, slug: offer.slug, legacyId: offer.legacy_id },
    trafficSource: { id: ts.id, legacyId: ts.legacy_id },
    options,
    user: { email, token: (login.json() as { token: string }).token },
    apiKey: (await t.app.services.apiKeys.create(Number((login.json() as { user: { id: number } }).user.id), {})).key,
  };
});

afterAll(async () => {
  process.stdout.write(`${summary(FULL_PLANNED)}\n`);
  await t?.close();
  stopWatching?.();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

// ------------------------------------------------------------------ the catalogue per endpoint

const key = (ep: ApiEndpoint) => `${ep.method} ${ep.path}`;
const params = (ep: ApiEndpoint) => [...ep.path.matchAll(/:(\w+)/g)].map((m) => m[1]);

/** Real values for each path parameter, so query and header attacks reach the handler behind a valid path. */
function realParams(ep: ApiEndpoint): Record<string, string[]> {
  const n = real.network,
    o = real.offer,
    s = real.trafficSource;
  const ids = (...xs: (number | string | null)[]) => xs.filter((x) => x !== null).map(String);
  if (ep.path === "/api/v1/networks/:id") return { id: ids(n.id) };
  if (ep.path === "/api/v1/offers/:id") return { id: ids(o.id) };
  if (ep.path === "/vendor/swagger-ui/:file") return { file: ["swagger-ui.css"] };
  if (ep.path.startsWith("/api/networks/legacy")) return { id: ids(n.legacyId, n.id) };
  if (ep.path === "/api/networks/:id/:slug") return { id: ids(n.id), slug: [n.slug] };
  if (ep.path === "/api/networks/:slug") return { slug: ids(n.slug, n.id) };
  if (ep.path.startsWith("/api/networks/")) return { id: ids(n.id) };
  if (ep.path.startsWith("/api/traffic-sources/legacy")) return { id: ids(s.legacyId, s.id) };
  if (ep.path.startsWith("/api/traffic-sources/")) return { id: ids(s.id) };
  if (ep.path.startsWith("/api/offers/legacy")) return { id: ids(o.legacyId, o.id) };
  if (ep.path === "/api/offers/:id/:slug") return { id: ids(o.id), slug: [o.slug] };
  if (ep.path === "/api/offers/:slug") return { slug: ids(o.slug, o.id) };
  return {};
}

const realPath = (ep: ApiEndpoint) =>
  ep.path.replace(/:(\w+)/g, (_m, name: string) => realParams(ep)[name]?.[0] ?? "1");

/** A valid body for each endpoint: the fields not under attack keep these values, so attacks reach the services and the database. */
function baseline(ep: ApiEndpoint, n: number): Record<string, unknown> {
  switch (ep.path) {
    case "/api/auth/register":
      return {
        name: "Fuzz Tester",
        email: `fuzz-reg-${n}@example.com`,
        password: PASSWORD,
        confirmPassword: PASSWORD,
        phone: "+1 555 010 2000",
        company: "Acme",
      };
    case "/api/auth/login":
      return { email: real.user.email, password: PASSWORD, remember: "true" };
    case "/api/auth/forgot-password":
      return { email: `nobody-${n}@example.com` };
    case "/api/auth/reset-password":
      return { token: "A".repeat(43), password: PASSWORD, confirmPassword: PASSWORD };
    case "/api/networks/:id/reviews":
      return { rating: 4, comment: "Paid on time every month, helpful affiliate manager." };
    case "/api/offers/search":
      return { query: "debt", page: 1, selectedTab: "topOffers" };
    case "/api/advertisement-request":
      return {
        name: "Jane Smith",
        email: "jane@example.com",
        company: "Acme",
        website: "https://acme.example.com",
        placements: ["Banner ads"],
        budget: "Under $1,000",
        message: "We promote finance offers in the US and Canada.",
      };
    case "/api/support/contact-us":
      return {
        name: "Jane Smith",
        email: "jane@example.com",
        topic: "General question",
        subject: "A question",
        message: "Hello, a question about listings.",
      };
    case "/api/add-your-network": {
      const o = real.options;
      return {
        networkName: "Acme Lead Network",
        website: "https://acme-leads.example.com",
        contactName: "Jane Smith",
        email: "jane@acme-leads.example.com",
        phone: "+1 555 010 2000",
        messenger: "@janesmith",
        description: "A CPA network with exclusive finance and insurance offers and weekly payments.",
        offerCount: "120",
        verticals: o.verticals.slice(0, 2),
        trackingPlatform: o.trackingPlatforms[0],
        paymentFrequency: o.paymentFrequencies[0],
        paymentMethods: o.paymentMethods.slice(0, 2),
        minimumPayment: "50",
        commissionTypes: o.commissionTypes.slice(0, 2),
      };
    }
    default:
      return {};
  }
}

/**
 * For attacks aimed elsewhere (headers, site, content types): a body that is cheap to
 * refuse where a valid one costs a password hash (register, login, reset), else the valid one.
 */
function cheapBody(ep: ApiEndpoint, n: number): Record<string, unknown> {
  const body = baseline(ep, n);
  if (ep.path === "/api/auth/login" || ep.path === "/api/auth/register" || ep.path === "/api/auth/reset-password")
    delete body.password;
  return body;
}

/** The login endpoints get the fuzz user's token (never /api/auth/logout: that would end the session). */
const authHeaders = (ep: ApiEndpoint): Record<string, string> => ({
  ...(ep.login ? { authorization: `Bearer ${real.user.token}` } : {}),
  ...(ep.key ? { "x-api-key": real.apiKey } : {}),
});

const isApiAnswer = (method: string, url: string) => {
  const p = new URL(url, "http://x").pathname;
  return p.startsWith("/api/") || ((p === "/healthz" || p === "/readyz") && (method === "GET" || method === "HEAD"));
};

function multipartParts(fields: Record<string, unknown>, logo: Part | null): Part[] {
  const parts: Part[] = [];
  for (const [k, v] of Object.entries(fields))
    for (const one of Array.isArray(v) ? v : [v]) parts.push({ name: k, value: String(one) });
  if (logo) parts.push(logo);
  return parts;
}
const goodLogo = (): Part => ({ name: "logo", value: GOOD_LOGO(), filename: "logo.png", type: "image/png" });

// ------------------------------------------------------------------ input classes

const METHODS = [
  "GET",
  "HEAD",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "OPTIONS",
  "PROPFIND",
  "PROPPATCH",
  "MKCOL",
  "COPY",
  "MOVE",
  "LOCK",
  "UNLOCK",
  "TRACE",
  "SEARCH",
  "REPORT",
  "MKCALENDAR",
] as const;

/** Hostile path parameters and query strings behind the endpoint's own method. */
const urlClass = (ep: ApiEndpoint) =>
  fc
    .record({
      base: markerBase,
      segs: fc.record(Object.fromEntries(params(ep).map((p) => [p, segmentArb(realParams(ep)[p] ?? [])]))),
      query: queryArb(ep.query),
      slash: fc.boolean(),
    })
    .map(({ base, segs, query, slash }) => {
      const bag = new MarkerBag(base);
      const p = renderPath(bag, ep.path, segs as never) + (slash ? "/" : "");
      const q = renderQuery(bag, query, "quote");
      const body =
        ep.body === "json"
          ? { payload: JSON.stringify(baseline(ep, base)), headers: { "content-type": "application/json" } }
          : undefined;
      const url = `${p}${q ? `?${q}` : ""}`;
      return request({
        target: key(ep),
        kind: "url",
        method: ep.method,
        url,
        headers: { ...authHeaders(ep), ...(body?.headers ?? {}) },
        payload: body?.payload,
        markers: bag.markers,
        api: isApiAnswer(ep.method, url),
      });
    });

/** The endpoint's own JSON fields (and strangers) set to hostile values, the other fields valid. */
const jsonFieldsClass = (ep: ApiEndpoint) => {
  const names = [...ep.fields.filter((f) => f !== "site"), ...(ep.fields.length ? [] : ["message"])];
  return fc
    .record({
      base: markerBase,
      mutate: fc.array(fc.tuple(fc.constantFrom(...names), jsonValueJunk(4000)), { minLength: 1, maxLength: 3 }),
      drop: fc.subarray(names, { maxLength: Math.min(2, names.length) }),
      extra: fc.array(fc.tuple(hostileKey, jsonValueJunk(64)), { maxLength: 2 }),
      topLevel: fc.oneof(
        { weight: 9, arbitrary: fc.constant("object" as const) },
        { weight: 1, arbitrary: fc.constant("array" as const) },
      ),
    })
    .map(({ base, mutate, drop, extra, topLevel }) => {
      const bag = new MarkerBag(base);
      const body: Record<string, unknown> = baseline(ep, base);
      for (const d of drop) delete body[d];
      for (const [k, v] of mutate) setOwn(body, k, v);
      // A failed login attempt with the real account counts against it: attack the password with a stranger's address.
      if (
        ep.path === "/api/auth/login" &&
        mutate.some(([k]) => k === "password") &&
        !mutate.some(([k]) => k === "email")
      ) {
        body.email = `nobody-${base}@example.com`;
      }
      const strangers: [string, string][] = [];
      for (const [k, v] of extra) {
        const filledKey = bag.fill(k, "JSON key", "never");
        strangers.push([filledKey, JSON.stringify(v) ?? "null"]);
      }
      let text = JSON.stringify(topLevel === "array" ? [body] : body) ?? "null";
      if (strangers.length && topLevel === "object") {
        const more = strangers.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",");
        text = text === "{}" ? `{${more}}` : `${text.slice(0, -1)},${more}}`;
      }
      const filled = bag.fill(text, "JSON field", "quote");
      return request({
        target: key(ep),
        kind: "json-fields",
        method: ep.method,
        url: realPath(ep),
        headers: { ...authHeaders(ep), "content-type": "application/json" },
        payload: filled,
        markers: bag.markers,
        api: true,
      });
    });
};

/** One field far over its limit, up to just under the body limit: refused, and never quoted back whole. */
const jsonLongClass = (ep: ApiEndpoint) => {
  const names = [...ep.fields.filter((f) => f !== "site"), ...(ep.fields.length ? [] : ["message"])];
  return fc
    .record({ base: markerBase, field: fc.constantFrom(...names), value: longTextBetween(2001, 250_000) })
    .map(({ base, field, value }) => {
      const bag = new MarkerBag(base);
      const body: Record<string, unknown> = baseline(ep, base);
      setOwn(body, field, value);
      if (ep.path === "/api/auth/login" && field === "password") body.email = `nobody-${base}@example.com`;
      const payload = bag.fill(JSON.stringify(body), `JSON field ${field} (${value.length} characters)`, "quote");
      return request({
        target: key(ep),
        kind: "json-long",
        method: ep.method,
        url: realPath(ep),
        headers: { ...authHeaders(ep), "content-type": "application/json" },
        payload,
        markers: bag.markers,
        api: true,
      });
    });
};

/** JSON text no serializer would write: special numbers, duplicate and prototype keys, nesting, truncation, bad UTF-8. */
const jsonRawClass = (ep: ApiEndpoint) =>
  fc.record({ base: markerBase, raw: rawJsonArb(ep.fields.filter((f) => f !== "site")) }).map(({ base, raw }) => {
    const bag = new MarkerBag(base);
    const policy = (text: string): EchoPolicy => {
      try {
        JSON.parse(text.replace(/^\ufeff/, ""));
        return /__proto__|constructor/.test(text) ? "never" : "quote";
      } catch {
        return "never";
      }
    };
    const payload =
      typeof raw === "string"
        ? bag.fill(raw, "raw JSON", policy)
        : Buffer.from(bag.fill(raw.toString("latin1"), "raw JSON (bad UTF-8)", "never"), "latin1");
    return request({
      target: key(ep),
      kind: "json-raw",
      method: ep.method,
      url: realPath(ep),
      headers: { ...authHeaders(ep), "content-type": "application/json" },
      payload,
      markers: bag.markers,
      api: true,
    });
  });

const fileArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant("good") },
  { weight: 1, arbitrary: fc.constantFrom("text", "svg", "empty", "marker", "none", "random", "html") },
);
const filenameArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant("logo.png") },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "../../../etc/passwd",
      "logo.png\u0000.php",
      "logo.PNG",
      ".png",
      "",
      "logo",
      "logo.png.exe",
      "con.png",
      "a".repeat(5000) + ".png",
      "\u202egnp.exe",
      "logo%00.png",
      "..\\..\\logo.png",
      "/etc/passwd",
      "logo.png;.html",
      '"quoted".png',
    ),
  },
  { weight: 2, arbitrary: hostileText.map((t) => `${t}.png`) },
);

function filePart(bag: MarkerBag, kind: string, filename: string, random: Uint8Array): Part | null {
  const name = bag.fill(filename, "file name", "never");
  switch (kind) {
    case "good":
      return { name: "logo", value: GOOD_LOGO(), filename: name, type: "image/png" };
    case "text":
      return { name: "logo", value: TEXT_AS_PNG(), filename: name, type: "image/png" };
    case "svg":
      return { name: "logo", value: Buffer.from(SVG_LOGO()), filename: name, type: "image/svg+xml" };
    case "empty":
      return { name: "logo", value: Buffer.alloc(0), filename: "", type: "application/octet-stream" };
    case "marker":
      return {
        name: "logo",
        value: Buffer.from(bag.fill(`\u0089PNG\r\n\u001a\n${M}`, "file bytes", "never"), "latin1"),
        filename: name,
        type: "image/png",
      };
    case "random":
      return { name: "logo", value: Buffer.from(random), filename: name, type: "image/png" };
    case "html":
      return {
        name: "logo",
        value: Buffer.from(bag.fill(`<html><script>alert(1)</script>${M}</html>`, "file bytes", "never")),
        filename: name,
        type: "text/html",
      };
    default:
      return null;
  }
}

/** Multipart with the endpoint's fields set to hostile values, duplicated, and hostile files and file names. */
const multipartFieldsClass = (ep: ApiEndpoint) => {
  const names = ep.fields.filter((f) => f !== "logo" && f !== "site");
  return fc
    .record({
      base: markerBase,
      mutate: fc.array(
        fc.tuple(
          fc.constantFrom(...names),
          fc.oneof(hostileText, longText(30_000), fc.array(hostileText, { maxLength: 3 })),
        ),
        { minLength: 1, maxLength: 3 },
      ),
      drop: fc.subarray(names, { maxLength: Math.min(2, names.length) }),
      dup: fc.subarray(names, { maxLength: Math.min(2, names.length) }),
      extra: fc.array(fc.tuple(hostileKey, hostileText), { maxLength: 2 }),
      file: fileArb,
      filename: filenameArb,
      random: fc.uint8Array({ maxLength: 2048 }),
      boundary: boundaryArb,
    })
    .map(({ base, mutate, drop, dup, extra, file, filename, random, boundary }) => {
      const bag = new MarkerBag(base);
      const fields: Record<string, unknown> = baseline(ep, base);
      for (const d of drop) delete fields[d];
      for (const [k, v] of mutate) fields[k] = v;
      const parts: Part[] = [];
      for (const [k, v] of Object.entries(fields)) {
        for (const one of Array.isArray(v) ? v : [v])
          parts.push({ name: k, value: bag.fill(String(one), `field ${k}`, "quote") });
      }
      for (const d of dup) parts.push({ name: d, value: bag.fill(`dup${M}`, `field ${d} (repeated)`, "quote") });
      for (const [k, v] of extra)
        parts.push({
          name: pctEncode(bag.fill(k, "part name", "never")),
          value: bag.fill(v, "stranger field", "quote"),
        });
      const logo = filePart(bag, file, filename, random);
      if (logo) parts.push(logo);
      const payload = buildMultipart(parts, { boundary });
      return request({
        target: key(ep),
        kind: "multipart-fields",
        method: ep.method,
        url: realPath(ep),
        headers: { ...authHeaders(ep), "content-type": `multipart/form-data; boundary=${boundary}` },
        payload,
        markers: bag.markers,
        api: true,
      });
    });
};

/** Broken multipart: wrong or missing boundaries, truncation, limits (parts, fields, headers, files, sizes), garbage. */
const multipartBrokenClass = (ep: ApiEndpoint) =>
  fc.record({ base: markerBase, plan: breakArb, boundary: boundaryArb }).map(({ base, plan, boundary }) => {
    const bag = new MarkerBag(base);
    const parts = multipartParts(baseline(ep, base), goodLogo()).map((p) => ({
      ...p,
      value: typeof p.value === "string" ? bag.fill(`${p.value}${M}`, `field ${p.name}`, "never") : p.value,
    }));
    const { body, contentType } = brokenMultipart(bag, parts, boundary, plan);
    return request({
      target: key(ep),
      kind: `multipart-broken:${plan.how}`,
      method: ep.method,
      url: realPath(ep),
      headers: { ...authHeaders(ep), "content-type": contentType },
      payload: body,
      markers: bag.markers,
      api: true,
    });
  });

const POST_ENDPOINTS = () => API_ENDPOINTS.filter((e) => e.method === "POST");

/** `site` (header, query, body field): unknown, empty, hostile. */
const siteClass = () =>
  fc
    .record({
      base: markerBase,
      ep: fc.constantFrom(...API_ENDPOINTS),
      where: fc.constantFrom("header", "query", "body"),
      value: fc.oneof(
        hostileText,
        fc.constantFrom(
          "",
          " ",
          "offeratlas",
          "OFFERATLAS",
          " offeratlas ",
          "unknown-site",
          "a".repeat(61),
          "..",
          "\u0000",
          "offeratlas\u0000",
          "__proto__",
        ),
      ),
    })
    .map(({ base, ep, where, value }) => {
      const bag = new MarkerBag(base);
      const headers: Record<string, string> = { ...authHeaders(ep) };
      let url = realPath(ep);
      let payload: string | Buffer | undefined;
      const body = cheapBody(ep, base);
      if (where === "header") headers["x-site"] = headerSafe(bag.fill(value, "x-site header", "never"));
      if (where === "query") url += `?site=${pctEncode(bag.fill(value, "site query", "quote"))}`;
      if (where === "body" && ep.body === "json") body.site = bag.fill(value, "site field", "quote");
      if (ep.body === "json") {
        payload = JSON.stringify(body);
        headers["content-type"] = "application/json";
      } else if (ep.body === "multipart") {
        const boundary = "----fuzzsite";
        const fields = where === "body" ? { ...body, site: bag.fill(value, "site field", "quote") } : body;
        payload = buildMultipart(multipartParts(fields, goodLogo()), { boundary });
        headers["content-type"] = `multipart/form-data; boundary=${boundary}`;
      }
      return request({
        target: key(ep),
        kind: `site:${where}`,
        method: ep.method,
        url,
        headers,
        payload,
        markers: bag.markers,
        api: isApiAnswer(ep.method, url),
      });
    });

/** Hostile request headers: Accept, Authorization, Cookie, encodings, ranges, forwarding headers, … */
const headersClass = () =>
  fc.record({ base: markerBase, ep: fc.constantFrom(...API_ENDPOINTS), plan: headerArb }).map(({ base, ep, plan }) => {
    const bag = new MarkerBag(base);
    const headers: Record<string, string> = { ...authHeaders(ep), ...renderHeaders(bag, plan) };
    let payload: string | undefined;
    if (ep.body === "json") {
      payload = JSON.stringify(cheapBody(ep, base));
      headers["content-type"] ??= "application/json";
    }
    return request({
      target: key(ep),
      kind: `headers:${plan.map((p) => p[0]).join(",") || "none"}`,
      method: ep.method,
      url: realPath(ep),
      headers,
      payload,
      markers: bag.markers,
      api: isApiAnswer(ep.method, realPath(ep)),
    });
  });

/** Every method on every endpoint's path (the API's catch-all owns the methods a route does not). */
const methodsClass = () =>
  fc
    .record({
      base: markerBase,
      ep: fc.constantFrom(...API_ENDPOINTS),
      method: fc.constantFrom(...METHODS),
      q: hostileText,
      body: fc.boolean(),
    })
    .map(({ base, ep, method, q, body }) => {
      const bag = new MarkerBag(base);
      const url = `${realPath(ep)}?q=${pctEncode(bag.fill(q, "query", "never"))}`;
      const withBody = body && method !== "GET" && method !== "HEAD";
      return request({
        target: key(ep),
        kind: `method:${method}`,
        method,
        url,
        headers: { ...authHeaders(ep), ...(withBody ? { "content-type": "application/json" } : {}) },
        payload: withBody ? bag.fill(JSON.stringify({ x: M }), "body", "never") : undefined,
        markers: bag.markers,
        api: isApiAnswer(method, url),
      });
    });

/** Bodies the endpoint does not take: wrong or missing content types, with JSON, form and text bodies. */
const contentTypeClass = () =>
  fc
    .record({
      base: markerBase,
      ep: fc.constantFrom(...POST_ENDPOINTS()),
      type: fc.option(fc.constantFrom(...CONTENT_TYPES), { freq: 8 }),
      body: fc.constantFrom("json", "form", "text", "empty", "multipart"),
      text: hostileText,
    })
    .map(({ base, ep, type, body, text }) => {
      const bag = new MarkerBag(base);
      const fields = cheapBody(ep, base);
      let payload: string | Buffer;
      if (body === "json") payload = JSON.stringify(fields);
      else if (body === "form") payload = encodeForm(Object.entries(fields).map(([k, v]) => [k, String(v)]));
      else if (body === "multipart") payload = buildMultipart(multipartParts(fields, null), { boundary: "zz" });
      else if (body === "text") payload = wtf8(bag.fill(text, "text body", "never"));
      else payload = "";
      const headers: Record<string, string> = { ...authHeaders(ep) };
      if (type !== null)
        headers["content-type"] = bag.fill(type, "content-type header", "never").replace(/[^\x20-\x7e]/g, "?");
      return request({
        target: key(ep),
        kind: `content-type:${type === null ? "(none)" : type.replace(M, "<marker>")}:${body}`,
        method: ep.method,
        url: realPath(ep),
        headers,
        payload,
        markers: bag.markers,
        api: true,
      });
    });

/** Bodies just over the API's 256 KB limit: 413 `{ message }`, never the body. */
const oversizedClass = () =>
  fc
    .record({
      base: markerBase,
      ep: fc.constantFrom(...POST_ENDPOINTS().filter((e) => e.body === "json")),
      over: fc.integer({ min: 1, max: 64 * 1024 }),
      type: fc.constantFrom("application/json", "application/json; charset=utf-8", "text/plain"),
      unit: fc.constantFrom("A", "\u00e9", "\\u0000", " ", "<script>"),
    })
    .map(({ base, ep, over, type, unit }) => {
      const bag = new MarkerBag(base);
      const field = ep.fields[0] ?? "x";
      const head = bag.fill(`{"${field}":"${M}`, "oversized body", "never");
      const tail = '"}';
      const room = API_BODY_LIMIT + over - Buffer.byteLength(head) - tail.length;
      const unitBytes = Buffer.byteLength(unit);
      const padding = unit.repeat(Math.floor(room / unitBytes)) + "A".repeat(room % unitBytes);
      const payload = `${head}${padding}${tail}`;
      return request({
        target: key(ep),
        kind: "oversized",
        method: ep.method,
        url: realPath(ep),
        headers: { ...authHeaders(ep), "content-type": type },
        // The API reads JSON only: a text/plain body may be refused for its type (415) before its size is seen.
        // Logout answers 2xx whatever it is sent (server/api/auth.ts: a client logging out must end up logged out).
        payload,
        markers: bag.markers,
        api: true,
        expect: {
          status: [413, ...(type === "text/plain" ? [415] : []), ...(ep.path === "/api/auth/logout" ? [200] : [])],
        },
      });
    });

/** Paths under /api that no route owns, with every method. */
const unknownPathClass = () =>
  fc
    .record({
      base: markerBase,
      segs: fc.array(segmentArb([]), { minLength: 1, maxLength: 4 }),
      prefix: fc.constantFrom(
        "/api/",
        "/api/networks/",
        "/api/offers/",
        "/api/auth/",
        "/api//",
        "/api/traffic-sources/legacy/",
      ),
      method: fc.constantFrom(...METHODS),
      query: queryArb([]),
    })
    .map(({ base, segs, prefix, method, query }) => {
      const bag = new MarkerBag(base);
      const p =
        prefix +
        segs
          .map((s) => ("raw" in s ? bag.fill(s.raw, "path", "never") : pctEncode(bag.fill(s.text, "path", "never"))))
          .join("/");
      const q = renderQuery(bag, query, "never");
      const url = `${p}${q ? `?${q}` : ""}`;
      return request({
        target: "ALL /api/*",
        kind: `unknown-path:${method}`,
        method,
        url,
        headers: {},
        markers: bag.markers,
        api: isApiAnswer(method, url),
      });
    });

// ------------------------------------------------------------------ run sizes

const R = {
  url: runs(20, 90),
  // POST handlers read their body, not the query: a few runs show the path and query are harmless there.
  urlPost: runs(6, 30),
  jsonFields: runs(50, 200),
  jsonLong: runs(12, 40),
  jsonRaw: runs(30, 100),
  multipartFields: runs(60, 200),
  multipartBroken: runs(40, 150),
  site: runs(120, 400),
  headers: runs(120, 450),
  methods: runs(120, 450),
  contentType: runs(150, 550),
  oversized: runs(30, 80),
  unknownPath: runs(100, 300),
};
const jsonPosts = API_ENDPOINTS.filter((e) => e.body === "json");
const multipartPosts = API_ENDPOINTS.filter((e) => e.body === "multipart");
const FULL_PLANNED =
  API_ENDPOINTS.filter((e) => e.method === "GET").length * R.url +
  API_ENDPOINTS.filter((e) => e.method === "POST").length * R.urlPost +
  jsonPosts.length * (R.jsonFields + R.jsonLong + R.jsonRaw) +
  multipartPosts.length * (R.multipartFields + R.multipartBroken) +
  R.site +
  R.headers +
  R.methods +
  R.contentType +
  R.oversized +
  R.unknownPath;

const SHRINKS = 25;
const check = (name: string, arb: fc.Arbitrary<FuzzRequest>, numRuns: number) =>
  checkProperty(t.app, name, arb, numRuns, SHRINKS);
const TIMEOUT = 600_000;

// ------------------------------------------------------------------ the suite

describe("hostile inputs: the catalogue", () => {
  it("lists every route Fastify registered (a new route must be added to tests/fuzz/catalogue.ts)", () => {
    const registered = parseRouteTree(t.app.printRoutes());
    expect(registered.length).toBeGreaterThan(30);
    const statics = staticFiles(path.join(BUILD_DIR, "client"));
    const known = new Set<string>();
    for (const ep of API_ENDPOINTS) {
      known.add(`${ep.method} ${normalizeRoute(ep.path)}`);
      if (ep.method === "GET") known.add(`HEAD ${normalizeRoute(ep.path)}`);
    }
    const catchAll = new Set(CATCH_ALL_ROUTES.map((r) => normalizeRoute(r.path)));
    const missing = registered.filter((r) => {
      const p = normalizeRoute(r.path);
      // Built assets are routes of their own (one per file); a rebuild during the run may rename them.
      if (
        catchAll.has(p) ||
        statics.has(r.path) ||
        ((r.method === "GET" || r.method === "HEAD") && r.path.startsWith("/assets/"))
      )
        return false;
      if (p.startsWith("/api/") && p.endsWith("*")) return false;
      return !known.has(`${r.method} ${p}`);
    });
    expect(missing, "routes missing from the fuzz catalogue").toEqual([]);
    // And the other way round: every catalogue entry is a real route.
    for (const ep of API_ENDPOINTS) {
      expect(t.app.hasRoute({ method: ep.method, url: ep.path }), key(ep)).toBe(true);
    }
    expect(
      registered.some((r) => r.path === "/api/*"),
      "the API catch-all is registered",
    ).toBe(true);
  });
});

describe("hostile inputs: every API endpoint", () => {
  for (const ep of API_ENDPOINTS) {
    it(
      `${key(ep)} · hostile path parameters and query strings`,
      () => check(`${key(ep)} url`, urlClass(ep), ep.method === "GET" ? R.url : R.urlPost),
      TIMEOUT,
    );
    if (ep.body === "json") {
      it(
        `${key(ep)} · hostile JSON field values`,
        () => check(`${key(ep)} json-fields`, jsonFieldsClass(ep), R.jsonFields),
        TIMEOUT,
      );
      it(
        `${key(ep)} · JSON field values far over their limits`,
        () => check(`${key(ep)} json-long`, jsonLongClass(ep), R.jsonLong),
        TIMEOUT,
      );
      it(`${key(ep)} · malformed JSON`, () => check(`${key(ep)} json-raw`, jsonRawClass(ep), R.jsonRaw), TIMEOUT);
    }
    if (ep.body === "multipart") {
      it(
        `${key(ep)} · hostile multipart fields and files`,
        () => check(`${key(ep)} multipart-fields`, multipartFieldsClass(ep), R.multipartFields),
        TIMEOUT,
      );
      it(
        `${key(ep)} · broken multipart`,
        () => check(`${key(ep)} multipart-broken`, multipartBrokenClass(ep), R.multipartBroken),
        TIMEOUT,
      );
    }
  }
});

describe("hostile inputs: across the API", () => {
  it("site given as header, query or body: unknown, empty, hostile", () => check("site", siteClass(), R.site), TIMEOUT);
  it("hostile request headers", () => check("headers", headersClass(), R.headers), TIMEOUT);
  it("every method on every endpoint", () => check("methods", methodsClass(), R.methods), TIMEOUT);
  it("wrong and missing content types", () => check("content-type", contentTypeClass(), R.contentType), TIMEOUT);
  it("bodies just over 256 KB answer 413", () => check("oversized", oversizedClass(), R.oversized), TIMEOUT);
  it("unknown paths under /api", () => check("unknown-path", unknownPathClass(), R.unknownPath), TIMEOUT);
});

// ------------------------------------------------------------------ known payloads

type Row = { name: string; requests: () => FuzzRequest[] };

const json = (
  target: string,
  url: string,
  body: unknown,
  extra: Partial<FuzzRequest> = {},
  headers: Record<string, string> = {},
): FuzzRequest =>
  request({
    target,
    kind: "known",
    method: "POST",
    url,
    headers: { "content-type": "application/json", ...headers },
    payload: typeof body === "string" ? body : JSON.stringify(body),
    markers: [],
    api: true,
    ...extra,
  });
const get = (url: string, extra: Partial<FuzzRequest> = {}): FuzzRequest =>
  request({
    target: `GET ${url.split("?")[0]}`,
    kind: "known",
    method: "GET",
    url,
    headers: {},
    markers: [],
    api: true,
    ...extra,
  });
const ep = (p: string) => API_ENDPOINTS.find((e) => e.path === p)!;
const MARK = "zqxjknownk0v";
const marked = (policy: EchoPolicy, where = "known payload") => [{ value: MARK, policy, where }];

const KNOWN: Row[] = [
  { name: "GET /api/networks?search=%00", requests: () => [get("/api/networks?search=%00")] },
  { name: "GET /api/networks/%00", requests: () => [get("/api/networks/%00")] },
  {
    name: "GET /api/networks/%ff/x answers 400 { message } without the path",
    requests: () => [get(`/api/networks/%ff/${MARK}`, { markers: marked("never", "path") })],
  },
  {
    name: "GET /api/ (the API root) answers 404 { message }",
    requests: () => [get("/api/", { expect: { status: 404 } })],
  },
  {
    name: "GET /api/offers/%00 and /api/traffic-sources/%00",
    requests: () => [get("/api/offers/%00"), get("/api/traffic-sources/%00"), get("/api/offers/legacy/%00")],
  },
  {
    name: "GET /api/networks/<201 characters> (over the router's parameter limit)",
    requests: () => [get(`/api/networks/${MARK}${"a".repeat(200)}`, { markers: marked("never", "path") })],
  },
  { name: "GET /api/auth/reset-password?token=%00", requests: () => [get("/api/auth/reset-password?token=%00")] },
  {
    name: "GET /api/links?page=1e309",
    requests: () => [get("/api/links?page=1e309"), get("/api/links?page=0x5"), get("/api/links?page=-0")],
  },
  {
    name: "PROPFIND /api/x answers 404 { message } without the path",
    requests: () => [request({ ...get(`/api/${MARK}`, { markers: marked("never", "path") }), method: "PROPFIND" })],
  },
  {
    name: "register with \\u0000 in the name",
    requests: () => [
      json(
        key(ep("/api/auth/register")),
        "/api/auth/register",
        { ...baseline(ep("/api/auth/register"), 1), name: `Fuzz\u0000${MARK}` },
        { markers: marked("quote", "name") },
      ),
    ],
  },
  {
    name: "register with a lone surrogate in the company",
    requests: () => [
      json(
        key(ep("/api/auth/register")),
        "/api/auth/register",
        { ...baseline(ep("/api/auth/register"), 2), company: `Acme\ud800${MARK}` },
        { markers: marked("quote", "company") },
      ),
    ],
  },
  {
    name: "contact-us with \\u0000 in the subject",
    requests: () => [
      json(
        key(ep("/api/support/contact-us")),
        "/api/support/contact-us",
        { ...baseline(ep("/api/support/contact-us"), 1), subject: `Hello\u0000${MARK}` },
        { markers: marked("quote", "subject") },
      ),
    ],
  },
  {
    name: "advertisement-request with \\u0000 in the message",
    requests: () => [
      json(
        key(ep("/api/advertisement-request")),
        "/api/advertisement-request",
        { ...baseline(ep("/api/advertisement-request"), 1), message: `We promote\u0000 ${MARK} finance offers.` },
        { markers: marked("quote", "message") },
      ),
    ],
  },
  {
    name: "advertisement-request with a lone surrogate in the message",
    requests: () => [
      json(
        key(ep("/api/advertisement-request")),
        "/api/advertisement-request",
        `{"name":"Jane Smith","email":"jane@example.com","company":"Acme","website":"https://acme.example.com","placements":["Banner ads"],"budget":"Under $1,000","message":"We promote \\ud800 ${MARK} offers."}`,
        { markers: marked("quote", "message") },
      ),
    ],
  },
  {
    name: "review with \\u0000 in the comment",
    requests: () => [
      json(
        key(ep("/api/networks/:id/reviews")),
        `/api/networks/${real.network.id}/reviews`,
        { rating: 4, comment: `Paid on time\u0000 every month ${MARK}, helpful manager.` },
        { markers: marked("quote", "comment") },
        { authorization: `Bearer ${real.user.token}` },
      ),
    ],
  },
  {
    name: 'review with rating "0x5" is refused with 400',
    requests: () => [
      json(
        key(ep("/api/networks/:id/reviews")),
        `/api/networks/${real.network.id}/reviews`,
        { rating: "0x5", comment: "Paid on time every month, helpful affiliate manager." },
        { expect: { status: 400 } },
        { authorization: `Bearer ${real.user.token}` },
      ),
    ],
  },
  {
    name: 'review with rating 1e309 / "1e309" / "-0" / " 5 " is refused with 400',
    requests: () =>
      [
        '{"rating": 1e309, "comment": "Paid on time every month, helpful affiliate manager."}',
        ...["1e309", "-0", "5e0", "0b101", "\uff15"].map((r) =>
          JSON.stringify({ rating: r, comment: "Paid on time every month, helpful affiliate manager." }),
        ),
      ].map((body) =>
        json(
          key(ep("/api/networks/:id/reviews")),
          `/api/networks/${real.network.id}/reviews`,
          body,
          { expect: { status: 400 } },
          { authorization: `Bearer ${real.user.token}` },
        ),
      ),
  },
  {
    name: "add-your-network with \\u0000 in the description",
    requests: () => {
      const fields = {
        ...baseline(ep("/api/add-your-network"), 1),
        description: `A CPA network\u0000 ${MARK} with exclusive finance offers and weekly payments.`,
      };
      return [
        request({
          target: key(ep("/api/add-your-network")),
          kind: "known",
          method: "POST",
          url: "/api/add-your-network",
          headers: { "content-type": "multipart/form-data; boundary=zzfuzz" },
          payload: buildMultipart(multipartParts(fields, goodLogo()), { boundary: "zzfuzz" }),
          markers: marked("quote", "description"),
          api: true,
        }),
      ];
    },
  },
  {
    name: 'POST /api/offers/search {"query":"\\u0000"}, then GET /api/top-searches answers 200',
    requests: () => [
      json(key(ep("/api/offers/search")), "/api/offers/search", { query: "\u0000" }),
      json(key(ep("/api/offers/search")), "/api/offers/search", { query: "\ud800debt" }),
      json(key(ep("/api/offers/search")), "/api/offers/search", '{"query":"x\\u0000y"}'),
      get("/api/top-searches", { expect: { status: 200 } }),
    ],
  },
  {
    name: 'POST /api/offers/search with page 1e309 / "0x5" answers 400',
    requests: () =>
      ['{"page": 1e309}', '{"page": "0x5"}', '{"page": -0}', '{"networks": [1e309]}', '{"countries": ["\\u0000"]}'].map(
        (b) =>
          json(
            key(ep("/api/offers/search")),
            "/api/offers/search",
            b,
            b.includes("countries") || b.includes("-0") ? {} : { expect: { status: 400 } },
          ),
      ),
  },
  {
    name: "POST /api/offers/search with ids past the int4 range (categories, networks) is not a 5xx",
    requests: () =>
      [
        '{"categories": [2147483648]}',
        '{"networks": [2147483648]}',
        '{"categories": "2147483648"}',
        '{"networks": "9223372036854775808"}',
      ].map((b) => json(key(ep("/api/offers/search")), "/api/offers/search", b)),
  },
  {
    name: "ids past the int4 range in paths are not a 5xx",
    requests: () =>
      [
        "/api/networks/2147483648/reviews",
        "/api/networks/2147483648/join",
        "/api/networks/legacy/2147483648",
        "/api/offers/2147483648",
        "/api/offers/legacy/2147483648",
        "/api/traffic-sources/2147483648",
        "/api/traffic-sources/legacy/2147483648",
        "/api/links?page=2147483648",
      ].map((u) => get(u)),
  },
  {
    name: "__proto__ / constructor keys answer 400 { message }",
    requests: () =>
      ['{"__proto__":{"isAdmin":true}}', '{"constructor":{"prototype":{"isAdmin":true}}}'].map((b) =>
        json(key(ep("/api/auth/register")), "/api/auth/register", b, { expect: { status: 400 } }),
      ),
  },
  {
    name: "a JSON body of 256 KB + 1 byte answers 413 { message }",
    requests: () => {
      const head = `{"query":"${MARK}`;
      return [
        json(
          key(ep("/api/offers/search")),
          "/api/offers/search",
          head + "A".repeat(API_BODY_LIMIT + 1 - head.length - 2) + '"}',
          { markers: marked("never", "body"), expect: { status: 413 } },
        ),
      ];
    },
  },
  {
    name: "Content-Type application/x-www-form-urlencoded on a JSON endpoint answers 415 { message }",
    requests: () => [
      request({
        ...json(key(ep("/api/auth/login")), "/api/auth/login", `email=${MARK}%40example.com&password=x`, {
          markers: marked("never", "body"),
          expect: { status: 415 },
        }),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
    ],
  },
  {
    name: "a Content-Type naming the marker is not echoed",
    requests: () => [
      request({
        ...json(key(ep("/api/auth/login")), "/api/auth/login", "{}", { markers: marked("never", "content-type") }),
        headers: { "content-type": `application/${MARK}` },
      }),
    ],
  },
  {
    name: "unknown site in the header is refused without echo",
    requests: () => [
      request({ ...get("/api/ping", { markers: marked("never", "x-site") }), headers: { "x-site": MARK } }),
    ],
  },
  {
    name: "deeply nested JSON (20,000 levels)",
    requests: () => [
      json(key(ep("/api/offers/search")), "/api/offers/search", `{"query":${"[".repeat(20_000)}${"]".repeat(20_000)}}`),
    ],
  },
];

describe("hostile inputs: known payloads (API)", () => {
  it.each(KNOWN.map((r) => [r.name, r] as const))(
    "%s",
    async (_name, row) => {
      for (const r of row.requests()) await sendAndCheck(t.app, r);
    },
    60_000,
  );
});

// ------------------------------------------------------------------ what only a real socket shows

type RawAnswer = { status: number; headers: string; body: string; raw: string };

/** Writes bytes to a socket and reads one answer: until its body is complete, the server closes, or `waitMs`. */
function rawExchange(port: number, bytes: Buffer | string, waitMs = 3000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(chunks).toString("latin1");
      const [head, ...rest] = raw.split("\r\n\r\n");
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(raw)?.[1] ?? 0);
      resolve({ status, headers: head ?? "", body: rest.join("\r\n\r\n"), raw });
    };
    const timer = setTimeout(done, waitMs);
    socket.on("data", (c: Buffer) => {
      chunks.push(c);
      const raw = Buffer.concat(chunks).toString("latin1");
      const end = raw.indexOf("\r\n\r\n");
      const length = /\r\ncontent-length: *(\d+)/i.exec(raw.slice(0, end))?.[1];
      if (end >= 0 && length !== undefined && Buffer.byteLength(raw.slice(end + 4), "latin1") >= Number(length)) done();
    });
    socket.on("error", done);
    socket.on("close", done);
    socket.write(bytes);
  });
}

const RAW_CASES: { name: string; bytes: () => string | Buffer; status?: number; api: boolean }[] = [
  {
    name: "a header over 16 KB on an API path answers 431 { message } without the path",
    status: 431,
    api: true,
    bytes: () => `GET /api/networks/${MARK} HTTP/1.1\r\nHost: localhost\r\nX-Big: ${"a".repeat(17 * 1024)}\r\n\r\n`,
  },
  {
    name: "a header over 16 KB on a page path answers 431 without the path",
    status: 431,
    api: true,
    bytes: () => `GET /${MARK}?q=${MARK} HTTP/1.1\r\nHost: localhost\r\nCookie: ${"a=b; ".repeat(4000)}\r\n\r\n`,
  },
  {
    name: "a NUL byte in the request line",
    api: true,
    bytes: () => `GET /api/networks/\u0000${MARK} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
  },
  {
    name: "a non-numeric Content-Length",
    api: true,
    bytes: () =>
      `POST /api/offers/search HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${MARK}\r\n\r\n{}`,
  },
  {
    name: "Content-Length and Transfer-Encoding together",
    api: true,
    bytes: () =>
      `POST /api/offers/search HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
  },
  {
    name: "an invalid chunk size",
    api: true,
    bytes: () =>
      `POST /api/offers/search HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz${MARK}\r\n{}\r\n0\r\n\r\n`,
  },
  {
    name: "a header name with spaces and a raw control character",
    api: true,
    bytes: () => `GET /api/ping HTTP/1.1\r\nHost: localhost\r\nBad Header${MARK}: x\r\nX-Ctl: a\u0001b\r\n\r\n`,
  },
  {
    name: "raw ../ in the path (no client normalisation)",
    api: true,
    bytes: () => `GET /api/../../../etc/passwd?${MARK} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
  },
  {
    name: "an absolute-form URL to another host",
    api: true,
    bytes: () => `GET http://evil.example/api/networks/${MARK} HTTP/1.1\r\nHost: evil.example\r\n\r\n`,
  },
  { name: "HTTP/0.9-style request", api: true, bytes: () => `GET /api/ping\r\n\r\n` },
  {
    name: "a body shorter than its Content-Length, then the client goes away",
    api: true,
    bytes: () =>
      `POST /api/offers/search HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"query":"${MARK}`,
  },
];

describe("hostile inputs: the HTTP parser (real socket)", () => {
  let port = 0;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const address = t.app.server.address();
    port = typeof address === "object" && address ? address.port : 0;
  });

  it.each(RAW_CASES.map((c) => [c.name, c] as const))(
    "%s",
    async (_name, c) => {
      stats.inputs++;
      const answer = await rawExchange(port, c.bytes(), c.name.includes("goes away") ? 300 : 3000);
      if (answer.status >= 500) stats.fiveXX++;
      const problems: string[] = [];
      if (c.status !== undefined && answer.status !== c.status)
        problems.push(`answered ${answer.status || "nothing"} instead of ${c.status}`);
      if (answer.status >= 500) problems.push(`answered ${answer.status}`);
      if (answer.status >= 400) {
        let body: unknown;
        try {
          body = JSON.parse(answer.body);
        } catch {
          problems.push(`error body is not JSON: ${JSON.stringify(answer.body.slice(0, 200))}`);
        }
        const keys = body && typeof body === "object" ? Object.keys(body) : [];
        if (body !== undefined && !(keys.length === 1 && typeof (body as { message?: unknown }).message === "string")) {
          problems.push(`error body is not { message }: ${answer.body.slice(0, 200)}`);
        }
      }
      if (answer.raw.toLowerCase().includes(MARK))
        problems.push(`answer echoes the request: ${JSON.stringify(answer.raw.slice(0, 300))}`);
      expect(problems, `${c.name}\n${JSON.stringify(answer.raw.slice(0, 400))}`).toEqual([]);
    },
    20_000,
  );
});

// ------------------------------------------------------------------ still up

describe("hostile inputs: the process stays up", () => {
  it("answers /healthz with 200 and saw no uncaught exception or unhandled rejection", async () => {
    const res = await send(
      t.app,
      request({
        target: "GET /healthz",
        kind: "final",
        method: "GET",
        url: "/healthz",
        headers: {},
        markers: [],
        api: true,
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(processEvents).toEqual([]);
  });
});
