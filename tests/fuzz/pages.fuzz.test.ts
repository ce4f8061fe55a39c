// Hostile-input suite, page half ("Hardening" issue): every page form action of
// app/routes.ts (login, register, forgot/reset password, contact, advertise,
// add-your-network, logout, the review form on the network page) and every page
// route with hostile paths, query strings, methods and headers, through the real
// React Router handler. Invariants: see harness.ts (pages answer HTML or a
// redirect; a 4xx may put a plain typed value back into its form field, never an
// oversized or binary one, a secret, a file, or anything of a 413/415).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUOTE_MAX } from "#contracts/messages.ts";
import { sql } from "#db/client.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { GOOD_LOGO, TEXT_AS_PNG } from "../fixtures/images.ts";
import { PAGE_ACTIONS, PAGE_ROUTES, readRouteTable, type PageAction, type PageRoute } from "./catalogue.ts";
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
  FORM_JUNK,
  NUMBERS,
  REFILL_MAX,
  boundaryArb,
  breakArb,
  brokenMultipart,
  buildMultipart,
  headerArb,
  hostileKey,
  hostileText,
  formBytes,
  isBinaryBytes,
  isBinaryText,
  longText,
  longTextBetween,
  markerBase,
  pctEncode,
  queryArb,
  renderHeaders,
  renderQuery,
  request,
  segmentArb,
  wtf8,
  type Part,
  type Segment,
} from "./arbitraries.ts";

const PASSWORD = "Plenty-of-Entropy-2009!";
const COMMENT = "Paid on time every month, helpful affiliate manager.";

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
  /** The account the /login form logs into (its password is never attacked with its own address). */
  loginUser: { email: string };
  /** The reviewer's session cookie (never sent to a logout). */
  cookie: string;
};
let real: Real;

async function account(name: string, ip: string) {
  const email = `${name}-${Date.now()}@example.com`;
  const reg = await t.app.inject({
    method: "POST",
    url: "/api/auth/register",
    remoteAddress: ip,
    payload: { name: "Fuzz Tester", email, password: PASSWORD, confirmPassword: PASSWORD },
  });
  expect(reg.statusCode, reg.body).toBe(201);
  const login = await t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    remoteAddress: ip,
    payload: { email, password: PASSWORD },
  });
  expect(login.statusCode, login.body).toBe(200);
  return { email, token: (login.json() as { token: string }).token };
}

beforeAll(async () => {
  stats.file = "pages";
  stopWatching = watchProcess();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "oa-fuzz-pages-"));
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
  const loginUser = await account("fuzz-page-login", "10.254.0.1");
  const reviewer = await account("fuzz-page-review", "10.254.0.2");
  real = {
    network: { id: network.id, slug: network.slug, legacyId: network.legacy_id },
    offer: { id: offer.id, slug: offer.slug, legacyId: offer.legacy_id },
    trafficSource: { id: ts.id, legacyId: ts.legacy_id },
    options,
    loginUser: { email: loginUser.email },
    cookie: `auth._token.local=${reviewer.token}`,
  };
});

afterAll(async () => {
  process.stdout.write(`${summary(PLANNED)}\n`);
  await t?.close();
  stopWatching?.();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

// ------------------------------------------------------------------ the actions

const actionUrl = (a: PageAction) => a.path.replace(":id", String(real.network.id)).replace(":slug", real.network.slug);
const target = (a: PageAction) => `page POST ${a.path}`;

/** Valid values for each form: the fields not under attack keep them, so attacks reach the services. */
function baseline(a: PageAction, n: number): Record<string, string | string[]> {
  switch (a.path) {
    case "/login":
      return { email: real.loginUser.email, password: PASSWORD, remember: "true", redirectTo: "/networks" };
    case "/register":
      return {
        name: "Fuzz Tester",
        email: `fuzz-page-reg-${n}@example.com`,
        password: PASSWORD,
        confirmPassword: PASSWORD,
        phone: "+1 555 010 2000",
        company: "Acme",
        messenger: "@fuzz",
      };
    case "/forgot-password":
      return { email: `nobody-${n}@example.com` };
    case "/reset-password":
      return { token: "A".repeat(43), password: PASSWORD, confirmPassword: PASSWORD };
    case "/contact":
      return {
        name: "Jane Smith",
        email: "jane@example.com",
        topic: "General question",
        subject: "A question",
        message: "Hello, a question about listings.",
      };
    case "/advertise":
      return {
        name: "Jane Smith",
        email: "jane@example.com",
        company: "Acme",
        website: "https://acme.example.com",
        placements: ["Banner ads", "Newsletter"],
        budget: "Under $1,000",
        message: "We promote finance offers in the US and Canada.",
      };
    case "/add-your-network": {
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
    case "/network/:id/:slug":
      return { intent: "review", rating: "4", comment: COMMENT };
    default:
      return {};
  }
}

/**
 * Where a field's value may come back in a refusal: never for secrets and for
 * oversized or binary values, else back into its own form field.
 */
const fieldPolicy =
  (a: PageAction, field: string) =>
  (value: string): EchoPolicy =>
    a.secret.includes(field) || !a.fields.includes(field) || value.length > REFILL_MAX || isBinaryText(value)
      ? "never"
      : "refill";

const goodLogo = (): Part => ({ name: "logo", value: GOOD_LOGO(), filename: "logo.png", type: "image/png" });

/** Cookie header for an action: the reviewer's session where a login is needed (never to a logout). */
const sessionHeaders = (a: PageAction, how: "cookie" | "none" | "junk", bag: MarkerBag): Record<string, string> => {
  if (how === "none") return {};
  if (how === "junk" || !a.login)
    return how === "junk" ? { cookie: `auth._token.local=${pctEncode(bag.fill(`x${M}`, "cookie", "never"))}` } : {};
  return { cookie: real.cookie };
};

type Encoded = { payload: string | Buffer; contentType: string };

function encode(
  pairs: [string, string, EchoPolicy | ((v: string) => EchoPolicy), string][],
  bag: MarkerBag,
  how: "urlencoded" | "multipart",
  boundary: string,
  files: Part[],
): Encoded {
  const filled = pairs.map(
    ([k, v, policy, where]) => [pctEncode(bag.fill(k, "field name", "never")), bag.fill(v, where, policy)] as const,
  );
  if (how === "urlencoded")
    return {
      payload: filled.map(([k, v]) => `${k}=${pctEncode(v)}`).join("&"),
      contentType: "application/x-www-form-urlencoded",
    };
  const parts: Part[] = [...filled.map(([k, v]) => ({ name: k, value: v })), ...files];
  return { payload: buildMultipart(parts, { boundary }), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Values a visitor might type: short hostile text (a refusal may put it back into its field). */
const formValue = fc.oneof(
  { weight: 8, arbitrary: hostileText },
  { weight: 1, arbitrary: longText(REFILL_MAX) },
  { weight: 2, arbitrary: fc.constantFrom(...NUMBERS) },
  { weight: 1, arbitrary: fc.constantFrom("on", "true", "false", "0", "1", "-1", "6", "5.5", "review", "delete", "") },
);

const METHODS = ["POST", "POST", "POST", "POST", "POST", "POST", "PUT", "PATCH", "DELETE"] as const;

type FieldPair = [string, string, EchoPolicy | ((v: string) => EchoPolicy), string];

type FormPlan = {
  base: number;
  encoding: "urlencoded" | "multipart";
  method: string;
  data: boolean;
  session: "cookie" | "none" | "junk";
  boundary: string;
  logo: string;
};

const formPlan = (a: PageAction) =>
  fc.record({
    base: markerBase,
    encoding: a.multipart
      ? fc.constantFrom("multipart" as const, "multipart" as const, "urlencoded" as const)
      : fc.constantFrom("urlencoded" as const, "urlencoded" as const, "multipart" as const),
    method: fc.constantFrom(...METHODS),
    data: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    session: fc.constantFrom("cookie" as const, "cookie" as const, "cookie" as const, "none" as const, "junk" as const),
    boundary: boundaryArb,
    logo: fc.constantFrom("good", "good", "text", "none"),
  });

/** A form post of `a` as a browser would encode it, from its baseline values changed by `change`. */
function formRequest(
  a: PageAction,
  plan: FormPlan,
  kind: string,
  change: (values: Record<string, string | string[]>, bag: MarkerBag) => FieldPair[],
): FuzzRequest {
  const bag = new MarkerBag(plan.base);
  const values: Record<string, string | string[]> = baseline(a, plan.base);
  const more = change(values, bag);
  const pairs: FieldPair[] = [];
  for (const [k, v] of Object.entries(values))
    for (const one of Array.isArray(v) ? v : [v]) pairs.push([k, one, fieldPolicy(a, k), `field ${k}`]);
  pairs.push(...more);
  const files =
    a.files && plan.logo !== "none"
      ? [
          plan.logo === "good"
            ? goodLogo()
            : {
                name: "logo",
                value: TEXT_AS_PNG(),
                filename: bag.fill(`${M}.png`, "file name", "never"),
                type: "image/png",
              },
        ]
      : [];
  const { payload, contentType } = encode(pairs, bag, plan.encoding, plan.boundary, files);
  const url = actionUrl(a) + (plan.data ? ".data" : "");
  return request({
    target: target(a),
    kind: `${kind}:${plan.encoding}${plan.data ? ":.data" : ""}`,
    method: plan.method,
    url,
    headers: { "content-type": contentType, ...sessionHeaders(a, plan.session, bag) },
    payload,
    markers: bag.markers,
    api: false,
  });
}

/** The form's own fields set to hostile values (the others valid), dropped or repeated. */
const fieldsClass = (a: PageAction) => {
  const names = a.fields.length ? a.fields : ["x"];
  return fc
    .record({
      plan: formPlan(a),
      mutate: fc.array(fc.tuple(fc.constantFrom(...names), formValue), { minLength: 1, maxLength: 3 }),
      drop: fc.subarray(names, { maxLength: Math.min(2, names.length) }),
      dup: fc.subarray(names, { maxLength: 1 }),
    })
    .map(({ plan, mutate, drop, dup }) =>
      formRequest(a, plan, "fields", (values) => {
        for (const d of drop) delete values[d];
        for (const [k, v] of mutate) values[k] = v;
        // A failed login with the real account counts against it: attack the password with a stranger's address.
        if (a.path === "/login" && mutate.some(([k]) => k === "password") && !mutate.some(([k]) => k === "email"))
          values.email = `nobody-${plan.base}@example.com`;
        return dup.map((d): FieldPair => [d, `again${M}`, fieldPolicy(a, d), `field ${d} (repeated)`]);
      }),
    );
};

/** Values longer than any form field takes (over 8 KiB): a refusal never sends them back. */
const longValuesClass = () =>
  fc
    // A docs/product.md §5 message may quote the first QUOTE_MAX characters of a value ("… is not a valid email
    // address"); the marker sits past them, so what is caught is the value coming back whole.
    .record({
      a: fc.constantFrom(...PAGE_ACTIONS.filter((x) => x.fields.length)),
      field: fc.nat(),
      value: longTextBetween(REFILL_MAX + 1, 250_000).map((v) => "l".repeat(QUOTE_MAX) + v),
    })
    .chain(({ a, field, value }) => formPlan(a).map((plan) => ({ a, field, value, plan })))
    .map(({ a, field, value, plan }) =>
      formRequest(a, plan, "long-value", (values) => {
        const name = a.fields[field % a.fields.length];
        delete values[name];
        return [[name, value, fieldPolicy(a, name), `field ${name} (${value.length} characters)`]];
      }),
    );

/** Fields the form does not have (prototype keys, hostile names): never sent back. */
const strangersClass = () =>
  fc
    .record({
      a: fc.constantFrom(...PAGE_ACTIONS),
      extra: fc.array(fc.tuple(hostileKey, hostileText), { minLength: 1, maxLength: 3 }),
    })
    .chain(({ a, extra }) => formPlan(a).map((plan) => ({ a, extra, plan })))
    .map(({ a, extra, plan }) =>
      formRequest(a, plan, "strangers", () => extra.map(([k, v]): FieldPair => [k, v, "never", "stranger field"])),
    );

/** Bodies that are not a browser's form: JSON, text, none, broken multipart, percent-encoding junk, binary. */
const rawClass = (a: PageAction) =>
  fc
    .record({
      base: markerBase,
      body: fc.constantFrom(
        "json",
        "text-form",
        "no-type",
        "xml",
        "octet",
        "broken-multipart",
        "url-junk",
        "empty",
        "type-junk",
      ),
      type: fc.constantFrom(...CONTENT_TYPES),
      plan: breakArb,
      junk: fc.array(fc.constantFrom(...FORM_JUNK), { minLength: 1, maxLength: 4 }),
      text: hostileText,
      bytes: fc.uint8Array({ maxLength: 2048 }),
      boundary: boundaryArb,
      data: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    })
    .map(({ base, body, type, plan, junk, text, bytes, boundary, data }) => {
      const bag = new MarkerBag(base);
      const values = baseline(a, base);
      const flat = Object.entries(values).flatMap(([k, v]) =>
        (Array.isArray(v) ? v : [v]).map((one) => [k, one] as [string, string]),
      );
      const headers: Record<string, string> = a.login ? { cookie: real.cookie } : {};
      let payload: string | Buffer = "";
      let kind: string = body;
      switch (body) {
        case "json":
          payload = bag.fill(JSON.stringify({ ...values, [a.fields[0] ?? "x"]: `${text}` }), "JSON body", "never");
          headers["content-type"] = "application/json";
          break;
        case "text-form": // <form enctype="text/plain">
          payload = wtf8(
            bag.fill(flat.map(([k, v]) => `${k}=${v}`).join("\r\n") + `\r\nx=${text}`, "text/plain body", "never"),
          );
          headers["content-type"] = "text/plain";
          break;
        case "no-type":
          payload = bag.fill(
            `${flat.map(([k, v]) => `${pctEncode(k)}=${pctEncode(v)}`).join("&")}&x=${pctEncode(text)}`,
            "body",
            "never",
          );
          break;
        case "xml":
          payload = bag.fill(
            `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><form><email>&e;${text}</email></form>`,
            "XML body",
            "never",
          );
          headers["content-type"] = "application/xml";
          break;
        case "octet":
          payload = Buffer.concat([Buffer.from(bytes), wtf8(bag.fill(M, "binary body", "never"))]);
          headers["content-type"] = "application/octet-stream";
          break;
        case "broken-multipart": {
          const parts = [
            ...flat.map(([k, v]) => ({ name: k, value: bag.fill(`${v}${M}`, `field ${k}`, "never") })),
            ...(a.files ? [goodLogo()] : []),
          ];
          const broken = brokenMultipart(bag, parts, boundary, plan);
          payload = broken.body;
          headers["content-type"] = broken.contentType;
          kind = `broken-multipart:${plan.how}`;
          break;
        }
        // (A "broken" body that a browser-grade parser still reads is a form: see refine below.)
        case "url-junk": {
          // Still a form (the browser's encoding, badly written): a value may go back into its field.
          const pairs = flat.map(([k, v]) => `${pctEncode(k)}=${pctEncode(v)}`);
          const name = a.fields[0] ?? "x";
          const marked = bag.fill(`${junk.join("")}${M}`, `field ${name} (junk encoding)`, (v) =>
            isBinaryBytes(formBytes(v)) ? "never" : fieldPolicy(a, name)(new URLSearchParams(`x=${v}`).get("x") ?? ""),
          );
          payload = [...pairs, ...junk, `${name}=${marked}`].join("&");
          headers["content-type"] = "application/x-www-form-urlencoded";
          break;
        }
        case "empty":
          payload = "";
          headers["content-type"] = "application/x-www-form-urlencoded";
          break;
        case "type-junk":
          payload = flat.map(([k, v]) => `${pctEncode(k)}=${pctEncode(v)}`).join("&");
          headers["content-type"] = bag.fill(type, "content-type header", "never").replace(/[^\x20-\x7e]/g, "?");
          kind = `type-junk:${type.replace(M, "<marker>")}`;
          break;
      }
      const r = request({
        target: target(a),
        kind: `raw:${kind}`,
        method: "POST",
        url: actionUrl(a) + (data ? ".data" : ""),
        headers,
        payload,
        markers: bag.markers,
        api: false,
      });
      if (body === "broken-multipart") r.refine = () => refineParsedForm(a, r);
      return r;
    });

/**
 * A mangled multipart body that the platform's own form parser (the one route actions
 * use) still reads is a form after all: its known fields may be put back into the form.
 */
async function refineParsedForm(a: PageAction, r: FuzzRequest) {
  let parsed: FormData;
  try {
    const body = typeof r.payload === "string" ? r.payload : new Uint8Array(r.payload ?? Buffer.alloc(0));
    parsed = await new Response(body, { headers: { "content-type": r.headers["content-type"] ?? "" } }).formData();
  } catch {
    return;
  }
  for (const m of r.markers) {
    for (const [name, value] of parsed) {
      if (typeof value === "string" && value.toLowerCase().includes(m.value)) m.policy = fieldPolicy(a, name)(value);
    }
  }
}

/** Form posts far over any form's size: never echoed. */
const oversizedClass = () =>
  fc
    .record({
      base: markerBase,
      a: fc.constantFrom(...PAGE_ACTIONS),
      size: fc.oneof(
        fc.integer({ min: 256 * 1024 + 1, max: 300 * 1024 }),
        fc.integer({ min: 300 * 1024, max: 2 * 1024 * 1024 }),
      ),
      encoding: fc.constantFrom("urlencoded" as const, "multipart" as const),
    })
    .map(({ base, a, size, encoding }) => {
      const bag = new MarkerBag(base);
      const field = a.fields.find((f) => !a.secret.includes(f)) ?? "x";
      const big = bag.fill(M, `oversized field ${field}`, "never") + "A".repeat(size);
      const values = { ...baseline(a, base), [field]: big };
      const pairs = Object.entries(values).flatMap(([k, v]) =>
        (Array.isArray(v) ? v : [v]).map((one) => [k, one] as [string, string]),
      );
      const payload =
        encoding === "urlencoded"
          ? pairs.map(([k, v]) => `${pctEncode(k)}=${pctEncode(v)}`).join("&")
          : buildMultipart(
              pairs.map(([k, v]) => ({ name: k, value: v })),
              { boundary: "zzbig" },
            );
      const headers = {
        "content-type":
          encoding === "urlencoded" ? "application/x-www-form-urlencoded" : "multipart/form-data; boundary=zzbig",
        ...(a.login ? { cookie: real.cookie } : {}),
      };
      return request({
        target: target(a),
        kind: `oversized:${encoding}`,
        method: "POST",
        url: actionUrl(a),
        headers,
        payload,
        markers: bag.markers,
        api: false,
      });
    });

// ------------------------------------------------------------------ page routes

/** Real values of each route parameter, so query and header attacks reach the loader. */
function realParam(route: PageRoute, name: string): string[] {
  const n = real.network,
    o = real.offer,
    s = real.trafficSource;
  const ids = (...xs: (number | string | null)[]) => xs.filter((x) => x !== null).map(String);
  if (route.pattern.startsWith("network/")) return name === "id" ? ids(n.id) : [n.slug];
  if (route.pattern.startsWith("offer/")) return name === "id" ? ids(o.id) : [o.slug];
  if (route.pattern.startsWith("traffic-sources/details")) return ids(s.id);
  if (route.pattern.startsWith("affiliate-offers")) return name === "id" ? ids(o.legacyId, o.id) : [o.slug];
  if (route.pattern.startsWith("affiliate-networks")) return name === "id" ? ids(n.legacyId, n.id) : [n.slug];
  if (route.pattern.startsWith("traffic/details")) return ids(s.legacyId, s.id);
  if (route.pattern.startsWith("sitemaps/"))
    return name === "kind" ? ["offers", "networks", "traffic-sources"] : ["1.xml", "2.xml"];
  return [];
}

type SegPlan = Segment | "omit" | "real";

/** GET (or HEAD) of every page with hostile path parameters, query strings and headers. */
const pageGetClass = () =>
  fc
    .record({
      base: markerBase,
      route: fc.constantFrom(...PAGE_ROUTES),
      segs: fc.array(
        fc.oneof(
          { weight: 3, arbitrary: fc.constant<SegPlan>("real") },
          { weight: 3, arbitrary: segmentArb([]) as fc.Arbitrary<SegPlan> },
          { weight: 1, arbitrary: fc.constant<SegPlan>("omit") },
        ),
        { minLength: 3, maxLength: 3 },
      ),
      wildcard: fc.array(segmentArb([]), { minLength: 1, maxLength: 3 }),
      query: queryArb([]),
      known: fc.array(
        fc.tuple(
          fc.nat(20),
          hostileText,
          fc.constantFrom(
            ...NUMBERS,
            "1",
            "2",
            "topOffers",
            "payout",
            "true",
            "US,CA",
            "networks",
            "countries",
            "1,2,3,4,5",
          ),
        ),
        { maxLength: 3 },
      ),
      headers: fc.option(headerArb, { freq: 3 }),
      data: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      head: fc.oneof({ weight: 8, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    })
    .map(({ base, route, segs, wildcard, query, known, headers, data, head }) => {
      const bag = new MarkerBag(base);
      let i = 0;
      const seg = (s: Segment) =>
        "raw" in s ? bag.fill(s.raw, "path", "never") : pctEncode(bag.fill(s.text, "path", "never"));
      const parts: string[] = [];
      for (const piece of route.pattern.split("/")) {
        const param = /^:(\w+)(\?)?$/.exec(piece);
        if (piece === "*") parts.push(...wildcard.map(seg));
        else if (!param) parts.push(piece);
        else {
          const plan = segs[i++ % segs.length];
          if (plan === "omit" && param[2]) continue;
          if (plan === "real" || plan === "omit") parts.push(realParam(route, param[1])[0] ?? "1");
          else parts.push(seg(plan));
        }
      }
      let p = `/${parts.filter((x) => x !== "").join("/")}`;
      if (data) p = p === "/" ? "/_root.data" : `${p}.data`;
      const q = [
        ...known
          .filter(() => route.query.length)
          .map(
            ([n, text, constant]) =>
              `${route.query[n % route.query.length]}=${n % 2 ? pctEncode(bag.fill(text, "query value", "never")) : pctEncode(constant)}`,
          ),
        renderQuery(bag, query, "never"),
      ]
        .filter(Boolean)
        .join("&");
      const url = `${p}${q ? `?${q}` : ""}`;
      return request({
        target: `page GET /${route.pattern}`,
        kind: `get${data ? ":.data" : ""}${head ? ":HEAD" : ""}`,
        method: head ? "HEAD" : "GET",
        url,
        headers: headers ? renderHeaders(bag, headers) : {},
        markers: bag.markers,
        api: false,
      });
    });

const NON_FORM_METHODS = ["POST", "PUT", "PATCH", "DELETE", "OPTIONS", "PROPFIND", "TRACE", "SEARCH", "LOCK"] as const;

/** Writing methods on pages without an action, and methods no page takes. */
const pageMethodsClass = () => {
  const withoutAction = PAGE_ROUTES.filter(
    (r) => !PAGE_ACTIONS.some((a) => a.path.replace(/\/:.*/, "") === `/${r.pattern}`.replace(/\/:.*/, "")),
  );
  return fc
    .record({
      base: markerBase,
      route: fc.constantFrom(...withoutAction),
      method: fc.constantFrom(...NON_FORM_METHODS),
      q: hostileText,
      body: hostileText,
    })
    .map(({ base, route, method, q, body }) => {
      const bag = new MarkerBag(base);
      const p = `/${route.pattern
        .replace(/\/?:\w+\?/g, "")
        .replace(/:(\w+)/g, (_m, name: string) => realParam(route, name)[0] ?? "1")
        .replace("*", "nowhere")}`;
      const url = `${p}?q=${pctEncode(bag.fill(q, "query", "never"))}`;
      return request({
        target: `page ${method} /${route.pattern}`,
        kind: `method:${method}`,
        method,
        url,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: `x=${pctEncode(bag.fill(body, "body", "never"))}`,
        markers: bag.markers,
        api: false,
      });
    });
};

// ------------------------------------------------------------------ run sizes

const R = {
  fields: runs(14, 90),
  raw: runs(10, 50),
  longValues: runs(16, 100),
  strangers: runs(16, 100),
  oversized: runs(8, 60),
  get: runs(80, 500),
  methods: runs(20, 130),
};
const PLANNED = PAGE_ACTIONS.length * (R.fields + R.raw) + R.longValues + R.strangers + R.oversized + R.get + R.methods;

const SHRINKS = 12;
const check = (name: string, arb: fc.Arbitrary<FuzzRequest>, numRuns: number) =>
  checkProperty(t.app, name, arb, numRuns, SHRINKS);
const TIMEOUT = 600_000;

// ------------------------------------------------------------------ the suite

describe("hostile inputs: the page catalogue", () => {
  it("covers every route of app/routes.ts and every route module that exports an action", () => {
    const table = readRouteTable();
    expect(table.length).toBeGreaterThan(20);
    expect(new Set(PAGE_ROUTES.map((r) => r.pattern))).toEqual(new Set(table.map((r) => r.pattern)));
    const withActions = table
      .filter((r) => r.hasAction)
      .map((r) => r.module)
      .sort();
    expect(PAGE_ACTIONS.map((a) => a.module).sort(), "page actions missing from the fuzz catalogue").toEqual(
      withActions,
    );
  });
});

describe("hostile inputs: every page form action", () => {
  for (const a of PAGE_ACTIONS) {
    it(`${target(a)} · hostile form fields`, () => check(`${target(a)} fields`, fieldsClass(a), R.fields), TIMEOUT);
    it(`${target(a)} · bodies that are not a form`, () => check(`${target(a)} raw`, rawClass(a), R.raw), TIMEOUT);
  }
  it(
    "values longer than any field takes are never sent back",
    () => check("page long values", longValuesClass(), R.longValues),
    TIMEOUT,
  );
  it(
    "fields the form does not have are never sent back",
    () => check("page strangers", strangersClass(), R.strangers),
    TIMEOUT,
  );
  it("form posts over any form's size", () => check("page oversized", oversizedClass(), R.oversized), TIMEOUT);
});

describe("hostile inputs: every page route", () => {
  it("hostile paths, query strings and headers", () => check("page GET", pageGetClass(), R.get), TIMEOUT);
  it("methods the page does not take", () => check("page methods", pageMethodsClass(), R.methods), TIMEOUT);
});

// ------------------------------------------------------------------ known payloads

const MARK = "zqxjknownk0v";
const action = (p: string) => PAGE_ACTIONS.find((a) => a.path === p)!;
const form = (
  a: PageAction,
  values: Record<string, string | string[]>,
  extra: Partial<FuzzRequest> = {},
  policy: EchoPolicy = "refill",
): FuzzRequest => {
  const pairs = Object.entries(values).flatMap(([k, v]) =>
    (Array.isArray(v) ? v : [v]).map((one) => [k, one] as [string, string]),
  );
  const payload = a.multipart
    ? buildMultipart([...pairs.map(([k, v]) => ({ name: k, value: v })), ...(a.files ? [goodLogo()] : [])], {
        boundary: "zzknown",
      })
    : pairs.map(([k, v]) => `${pctEncode(k)}=${pctEncode(v)}`).join("&");
  return request({
    target: target(a),
    kind: "known",
    method: "POST",
    url: actionUrl(a),
    headers: {
      "content-type": a.multipart ? "multipart/form-data; boundary=zzknown" : "application/x-www-form-urlencoded",
      ...(a.login ? { cookie: real.cookie } : {}),
    },
    payload,
    markers: JSON.stringify(values).includes(MARK) ? [{ value: MARK, policy, where: "known payload" }] : [],
    api: false,
    ...extra,
  });
};

type Row = { name: string; requests: () => FuzzRequest[] };

const KNOWN: Row[] = [
  {
    name: "POST /login with Content-Type application/json and {} is not a 5xx",
    requests: () => [
      request({
        target: target(action("/login")),
        kind: "known",
        method: "POST",
        url: "/login",
        headers: { "content-type": "application/json" },
        payload: "{}",
        markers: [],
        api: false,
      }),
    ],
  },
  ...PAGE_ACTIONS.filter((a) => a.path !== "/logout").map((a): Row => ({
    name: `POST ${a.path} with application/json, text/plain and no Content-Type is not a 5xx and not echoed`,
    requests: () =>
      [
        { type: "application/json", body: JSON.stringify({ ...baseline(a, 7), [a.fields[0]]: MARK }) },
        { type: "text/plain", body: `${a.fields[0]}=${MARK}` },
        { type: undefined, body: `${a.fields[0]}=${MARK}` },
      ].map(({ type, body }) =>
        request({
          target: target(a),
          kind: "known",
          method: "POST",
          url: actionUrl(a),
          headers: { ...(type ? { "content-type": type } : {}), ...(a.login ? { cookie: real.cookie } : {}) },
          payload: body,
          markers: [{ value: MARK, policy: "never", where: "non-form body" }],
          api: false,
        }),
      ),
  })),
  {
    name: "register with \\u0000 in the name",
    requests: () => [
      form(action("/register"), { ...baseline(action("/register"), 11), name: `Fuzz\u0000${MARK}` }, {}, "never"),
    ],
  },
  {
    name: "contact with \\u0000 in the subject",
    requests: () => [
      form(action("/contact"), { ...baseline(action("/contact"), 1), subject: `Hello\u0000${MARK}` }, {}, "never"),
    ],
  },
  {
    name: "advertise with \\u0000 in the message",
    requests: () => [
      form(
        action("/advertise"),
        { ...baseline(action("/advertise"), 1), message: `We promote\u0000 ${MARK} offers.` },
        {},
        "never",
      ),
    ],
  },
  {
    name: "advertise with a lone surrogate in the message",
    requests: () => [
      form(
        action("/advertise"),
        { ...baseline(action("/advertise"), 2), message: `We promote \ud800 ${MARK} offers.` },
        {},
        "never",
      ),
    ],
  },
  {
    name: "review form with \\u0000 in the comment",
    requests: () => [
      form(
        action("/network/:id/:slug"),
        { intent: "review", rating: "4", comment: `Paid on time\u0000 every month ${MARK}, helpful manager.` },
        {},
        "never",
      ),
    ],
  },
  {
    name: "add-your-network with \\u0000 in the description",
    requests: () => [
      form(
        action("/add-your-network"),
        {
          ...baseline(action("/add-your-network"), 1),
          description: `A CPA network\u0000 ${MARK} with exclusive finance offers and weekly payments.`,
        },
        {},
        "never",
      ),
    ],
  },
  {
    name: 'review form with rating "0x5" is refused with 400',
    requests: () => [
      form(
        action("/network/:id/:slug"),
        { intent: "review", rating: "0x5", comment: COMMENT },
        { expect: { status: 400 } },
      ),
    ],
  },
  {
    name: 'review form with rating "1e309", "-0", "5e0", "\uff15" is refused with 400',
    requests: () =>
      ["1e309", "-0", "5e0", "\uff15", " 5 "].map((rating) =>
        form(action("/network/:id/:slug"), { intent: "review", rating, comment: COMMENT }, { expect: { status: 400 } }),
      ),
  },
  {
    name: "login with redirectTo=/.//evil.example (and friends) stays on the site",
    requests: () =>
      [
        "/.//evil.example",
        "//evil.example",
        "/\\evil.example",
        "/./\\evil.example",
        "/%2f%2fevil.example",
        "https://evil.example",
        "/..//evil.example",
        "\t//evil.example",
        "/\t/evil.example",
        "/%5cevil.example",
      ].map((redirectTo) => form(action("/login"), { email: real.loginUser.email, password: PASSWORD, redirectTo })),
  },
  {
    name: "GET /login?redirectTo=/.//evil.example never puts an off-site target into the form",
    requests: () => [
      request({
        target: "page GET /login",
        kind: "known",
        method: "GET",
        url: "/login?redirectTo=/.//evil.example",
        headers: {},
        markers: [],
        api: false,
      }),
    ],
  },
  ...PAGE_ACTIONS.map((a): Row => ({
    name: `a 6 MiB post to ${a.path} answers 413 without the body`,
    requests: () =>
      (["urlencoded", "multipart"] as const).map((encoding) => {
        const big = `${MARK}${"A".repeat(6 * 1024 * 1024)}`;
        const payload =
          encoding === "urlencoded"
            ? `${a.fields[0] ?? "x"}=${big}`
            : buildMultipart([{ name: a.fields[0] ?? "x", value: big }], { boundary: "zz6m" });
        return request({
          target: target(a),
          kind: `known:6MiB:${encoding}`,
          method: "POST",
          url: actionUrl(a),
          headers: {
            "content-type":
              encoding === "urlencoded" ? "application/x-www-form-urlencoded" : "multipart/form-data; boundary=zz6m",
            ...(a.login ? { cookie: real.cookie } : {}),
          },
          payload,
          markers: [{ value: MARK, policy: "never", where: "6 MiB body" }],
          api: false,
          expect: { status: 413 },
        });
      }),
  })),
  {
    name: "GET /compare?ids=<junk>, /network/%ff, /offer/%00, /?page=1e309, /links?page=-0, /sitemaps/%00/1.xml are not 5xx",
    requests: () =>
      [
        "/?categories=2147483648",
        "/pay-per-call-offers?categories=99999999999",
        "/?networks=2147483648",
        "/compare?ids=2147483648,1",
        "/network/2147483648/x",
        "/offer/2147483648",
        "/compare?ids=%00,%ff,1e309,-0,0x5",
        "/network/%ff",
        "/network/%00/x",
        "/offer/%00",
        "/offer/1e309/x",
        "/?page=1e309&selectedTab=%00",
        "/?search=%00",
        "/networks?search=%00",
        "/traffic-sources?search=%ed%a0%80",
        "/links?page=-0",
        "/sitemaps/%00/1.xml",
        "/sitemaps/offers/99999999999.xml",
        "/feeds/offers.xml?vertical=%00",
        "/reset-password?token=%00",
        "/traffic-sources/details/%00",
        "/affiliate-offers/details/offerId/%00",
        "/network/1/x?reviewsPage=%00&page=0x5",
        "/_root.data?search=%00",
        "/networks.data?search=%00",
        "/%ff.data",
      ].map((url) =>
        request({ target: "page GET", kind: "known", method: "GET", url, headers: {}, markers: [], api: false }),
      ),
  },
];

describe("hostile inputs: known payloads (pages)", () => {
  it.each(KNOWN.map((r) => [r.name, r] as const))(
    "%s",
    async (_name, row) => {
      for (const r of row.requests()) {
        const res = await sendAndCheck(t.app, r);
        if (r.url.startsWith("/login?redirectTo=")) {
          const hidden = /name="redirectTo" value="([^"]*)"/.exec(res.body)?.[1];
          if (hidden !== undefined)
            expect(
              new URL(hidden.replace(/&amp;/g, "&"), "http://fuzz-site.invalid/").origin,
              `redirectTo kept as ${hidden}`,
            ).toBe("http://fuzz-site.invalid");
        }
      }
    },
    60_000,
  );
});

// ------------------------------------------------------------------ still up

describe("hostile inputs: the process stays up (pages)", () => {
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
    const home = await send(
      t.app,
      request({ target: "page GET /", kind: "final", method: "GET", url: "/", headers: {}, markers: [], api: false }),
    );
    expect(home.statusCode).toBe(200);
    expect(processEvents).toEqual([]);
  });
});
