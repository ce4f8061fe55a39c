// The public read API (/api/v1, issue #14): every answer is checked against the published
// OpenAPI document by a validator library (ajv, JSON Schema 2020-12, the dialect of
// OpenAPI 3.1), by path and status; keys are created, used, revoked and rate limited.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { Validator } from "@seriousme/openapi-schema-validator";
import type { LightMyRequestResponse } from "fastify";
import { sql } from "#db/client.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";

type Doc = {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, { responses: Record<string, ResponseDoc> }>>;
};
type ResponseDoc = {
  content?: Record<string, { schema: object }>;
  headers?: Record<string, { required?: boolean; schema: object }>;
};

const V1 = "/api/v1";
let t: TestApp;
let doc: Doc;
let ajv: InstanceType<typeof Ajv2020>;
let key: string;

beforeAll(async () => {
  t = await createTestApp({
    seed: { networks: 12, offers: 300, trafficSources: 9 },
    env: { API_KEY_RATE_LIMIT_PER_MINUTE: "100000", PUBLIC_URL: "https://api-docs.example" },
  });
  const res = await t.app.inject(`${V1}/openapi.json`);
  expect(res.statusCode).toBe(200);
  doc = res.json();
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, "openapi.json");
  key = await newKey(t);
});
afterAll(() => t?.close());

async function newKey(app: TestApp): Promise<string> {
  const { user } = await signInWithRoles(app, [], "Api Client");
  return (await app.app.services.apiKeys.create(user.id, { name: "tests" })).key;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

/** The document's path template an address answers under ("/offers/12" → "/offers/{id}"). */
function templateOf(url: string): string {
  const path = new URL(url, "http://local").pathname.slice(V1.length);
  const found = Object.keys(doc.paths).find((tpl) => new RegExp(`^${tpl.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path));
  if (!found) throw new Error(`no path of the document matches ${path}`);
  return found;
}

/** Fails unless the answer is one the document declares for this path and status, body and headers. */
function expectDocumented(res: LightMyRequestResponse, url: string, method = "get") {
  const template = templateOf(url);
  const declared = doc.paths[template][method]?.responses[String(res.statusCode)];
  expect(declared, `${method.toUpperCase()} ${template} ${res.statusCode} is not in the document`).toBeDefined();
  const base = `openapi.json#/${pointer("paths", template, method, "responses", String(res.statusCode))}`;
  if (declared.content) {
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    const validate = ajv.getSchema(`${base}/content/${pointer("application/json")}/schema`)!;
    const ok = validate(res.json());
    expect(ok, JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
  } else {
    expect(res.body).toBe("");
  }
  for (const [name, header] of Object.entries(declared.headers ?? {})) {
    const value = res.headers[name.toLowerCase()];
    if (header.required) expect(value, `header ${name}`).toBeDefined();
    if (value !== undefined) {
      const validate = ajv.getSchema(`${base}/headers/${pointer(name)}/schema`)!;
      expect(validate(String(value)), `header ${name}`).toBe(true);
    }
  }
}

async function get(url: string, headers: Record<string, string> = { authorization: `Bearer ${key}` }) {
  const res = await t.app.inject({ method: "GET", url, headers });
  expectDocumented(res, url);
  return res;
}

describe("the OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document, public and cacheable, naming the public address", async () => {
    const result = await new Validator().validate(structuredClone(doc) as Parameters<Validator["validate"]>[0]);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: "https://api-docs.example/api/v1" }]);
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        "/networks",
        "/networks/{id}",
        "/offers",
        "/offers/{id}",
        "/openapi.json",
        "/traffic-sources",
        "/verticals",
      ].sort(),
    );
    const res = await get(`${V1}/openapi.json`, {});
    expect(res.headers["cache-control"]).toBe("public, max-age=300");
  });

  it("has Swagger UI's two files served for /developers, and nothing else of the package", async () => {
    const css = await t.app.inject("/vendor/swagger-ui/swagger-ui.css");
    expect(css.statusCode).toBe(200);
    expect(css.headers["content-type"]).toMatch(/^text\/css/);
    const js = await t.app.inject("/vendor/swagger-ui/swagger-ui-bundle.js");
    expect(js.statusCode).toBe(200);
    expect(js.body).toContain("SwaggerUIBundle");
    for (const file of ["package.json", "index.html", "..%2Fpackage.json", "swagger-initializer.js"])
      expect((await t.app.inject(`/vendor/swagger-ui/${file}`)).statusCode, file).toBe(404);
  });

  it("is strict enough to catch a drifting answer", async () => {
    const schema = `openapi.json#/${pointer("paths", "/offers/{id}", "get", "responses", "200", "content", "application/json", "schema")}`;
    const validate = ajv.getSchema(schema)!;
    const [{ id }] = await t.db.query<{ id: number }>(sql`SELECT id FROM offers WHERE status = 'active' LIMIT 1`);
    const { offer } = (await get(`${V1}/offers/${id}`)).json();
    expect(validate({ offer })).toBe(true);
    expect(validate({ offer: { ...offer, id: String(offer.id) } })).toBe(false);
    expect(validate({ offer: { ...offer, network: undefined } })).toBe(false);
  });
});

describe("API keys", () => {
  const paths = ["/offers", "/offers/1", "/networks", "/networks/1", "/traffic-sources", "/verticals"];

  it("refuses anonymous calls to every path with 401 { message }", async () => {
    for (const path of paths) {
      const res = await get(`${V1}${path}`, {});
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toMatch(/API key is required/);
    }
    // Also paths no route owns: an anonymous caller learns nothing about them.
    expect((await t.app.inject(`${V1}/no-such-thing`)).statusCode).toBe(401);
  });

  it("refuses a made-up key and a malformed header", async () => {
    for (const headers of [
      { authorization: "Bearer oa_live_madeup" } as Record<string, string>,
      { "x-api-key": "oa_live_madeup" },
      { authorization: "Basic abc" },
    ]) {
      const res = await get(`${V1}/verticals`, headers);
      expect(res.statusCode).toBe(401);
    }
  });

  it("creates a key with a session, uses it as a bearer token and as X-Api-Key, then revokes it", async () => {
    const account = await signInWithRoles(t, [], "Key Owner");
    const created = await t.app.inject({
      method: "POST",
      url: "/api/account/api-keys",
      headers: account.headers,
      payload: { name: "script" },
    });
    expect(created.statusCode).toBe(201);
    const { id, key: mine } = created.json<{ id: number; key: string }>();

    expect((await get(`${V1}/verticals`, { authorization: `Bearer ${mine}` })).statusCode).toBe(200);
    expect((await get(`${V1}/verticals`, { "x-api-key": mine })).statusCode).toBe(200);

    const revoked = await t.app.inject({
      method: "DELETE",
      url: `/api/account/api-keys/${id}`,
      headers: account.headers,
    });
    expect(revoked.statusCode).toBe(204);
    const after = await get(`${V1}/verticals`, { "x-api-key": mine });
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toMatch(/revoked/);
  });
});

describe("resources", () => {
  it("searches offers with the site's parameters and answers the offers the site finds", async () => {
    const [{ id: networkId }] = await t.db.query<{ id: number }>(
      sql`SELECT network_id AS id FROM offers WHERE status = 'active' GROUP BY network_id ORDER BY count(*) DESC LIMIT 1`,
    );
    const url = `${V1}/offers?networks=${networkId}&selectedTab=newest`;
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    const body = res.json<{ offers: { networkId: number }[]; total: number }>();
    expect(body.offers.length).toBeGreaterThan(0);
    expect(body.offers.every((o) => o.networkId === networkId)).toBe(true);
    const site = await t.app.inject({
      method: "POST",
      url: "/api/offers/search",
      payload: { networks: [networkId], selectedTab: "newest" },
    });
    expect(body.total).toBe(site.json().total);
    expect(body.offers.map((o) => (o as unknown as { id: number }).id)).toEqual(
      site.json().offers.map((o: { id: number }) => o.id),
    );
  });

  it("answers one offer with its history, and 404 for an unknown or retired one", async () => {
    const [active] = await t.db.query<{ id: number }>(sql`SELECT id FROM offers WHERE status = 'active' LIMIT 1`);
    const res = await get(`${V1}/offers/${active.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().offer).toMatchObject({ id: Number(active.id), payoutHistory: expect.any(Array) });
    expect(res.json().offer).not.toHaveProperty("productKey");

    expect((await get(`${V1}/offers/999999999`)).statusCode).toBe(404);
    const [retired] = await t.db.query<{ id: number }>(
      sql`UPDATE offers SET status = 'retired' WHERE id = (SELECT max(id) FROM offers) RETURNING id`,
    );
    expect((await get(`${V1}/offers/${retired.id}`)).statusCode).toBe(404);
  });

  it("answers a network with its reviews summary", async () => {
    const [network] = await t.db.query<{ id: number; name: string }>(
      sql`SELECT id, name FROM networks WHERE status = 'active' ORDER BY id LIMIT 1`,
    );
    const res = await get(`${V1}/networks/${network.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().network).toMatchObject({
      id: Number(network.id),
      name: network.name,
      reviews: { reviewCount: 0, distribution: { "1": 0, "2": 0, "3": 0, "4": 0, "5": 0 } },
    });
    expect((await get(`${V1}/networks/999999999`)).statusCode).toBe(404);
  });

  it("lists traffic sources and verticals", async () => {
    const sources = await get(`${V1}/traffic-sources`);
    expect(sources.json().trafficSources).toHaveLength(9);
    const verticals = await get(`${V1}/verticals`);
    const [{ n }] = await t.db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM categories`);
    expect(verticals.json().verticals).toHaveLength(n);
  });

  it("answers 400 { message } for bad parameters and cursors, never 500", async () => {
    for (const url of [
      `${V1}/offers?selectedTab=nope`,
      `${V1}/offers?countries=USA`,
      `${V1}/offers?networks=x`,
      `${V1}/offers?cursor=not-a-cursor`,
      `${V1}/offers?cursor=${Buffer.from('{"p":99}').toString("base64url")}`,
      `${V1}/networks?limit=0`,
      `${V1}/networks?limit=abc`,
      `${V1}/networks?cursor=${Buffer.from('{"p":2}').toString("base64url")}`,
      `${V1}/verticals?cursor=%00`,
      `${V1}/offers/abc`,
      `${V1}/networks/0`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message).toEqual(expect.any(String));
    }
  });
});

describe("pagination, caching and CORS", () => {
  /** Follows `next` from the first page, checking the Link header says the same. */
  async function walk(first: string, field: string): Promise<number[]> {
    const ids: number[] = [];
    let url: string | null = first;
    while (url) {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      ids.push(...body[field].map((item: { id: number }) => item.id));
      const link = res.headers.link as string | undefined;
      if (body.next) {
        expect(link).toMatch(/; rel="next"$/);
        url = /^<([^>]+)>/.exec(link!)![1];
        expect(new URL(url, "http://local").searchParams.get("cursor")).toBe(body.next);
      } else {
        expect(link).toBeUndefined();
        url = null;
      }
    }
    return ids;
  }

  it("walks every network in name order without duplicates", async () => {
    const ids = await walk(`${V1}/networks?limit=5`, "networks");
    const [{ n }] = await t.db.query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM networks WHERE status = 'active'`,
    );
    expect(ids.length).toBe(n);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("walks every matching offer of a search without duplicates", async () => {
    const ids = await walk(`${V1}/offers?selectedTab=newest`, "offers");
    const [{ n }] = await t.db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM offers WHERE status = 'active'`);
    expect(ids.length).toBe(n);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("sends a weak ETag and answers 304 to a matching If-None-Match", async () => {
    const first = await get(`${V1}/verticals`);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await get(`${V1}/verticals`, { authorization: `Bearer ${key}`, "if-none-match": etag });
    expect(again.statusCode).toBe(304);
    expect(again.headers.etag).toBe(etag);
    const other = await get(`${V1}/verticals`, { authorization: `Bearer ${key}`, "if-none-match": 'W/"other"' });
    expect(other.statusCode).toBe(200);

    // A compressed answer carries the same validator (weak: it names the content, not the bytes).
    const headers = { authorization: `Bearer ${key}`, "accept-encoding": "gzip" };
    const gzipped = await t.app.inject({ url: `${V1}/offers`, headers });
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    const plain = await get(`${V1}/offers`);
    expect(gzipped.headers.etag).toBe(plain.headers.etag);
    const unchanged = await t.app.inject({
      url: `${V1}/offers`,
      headers: { ...headers, "if-none-match": String(plain.headers.etag) },
    });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe("");
  });

  it("answers a CORS preflight for reads and exposes its headers", async () => {
    const preflight = await t.app.inject({
      method: "OPTIONS",
      url: `${V1}/offers`,
      headers: { origin: "https://tool.example", "access-control-request-method": "GET" },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("*");
    expect(preflight.headers["access-control-allow-methods"]).toBe("GET, HEAD, OPTIONS");
    expect(String(preflight.headers["access-control-allow-headers"])).toMatch(
      /Authorization.*X-Api-Key.*If-None-Match/,
    );
    const res = await get(`${V1}/verticals`, { authorization: `Bearer ${key}`, origin: "https://tool.example" });
    expect(res.headers["access-control-allow-origin"]).toBe("*");
    expect(String(res.headers["access-control-expose-headers"])).toMatch(/ETag.*Link.*RateLimit-Remaining/);
  });
});

describe("the per-key rate limit", () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await createTestApp({
      seed: { networks: 2, offers: 5, trafficSources: 2 },
      env: { API_KEY_RATE_LIMIT_PER_MINUTE: "3" },
    });
  });
  afterAll(() => small?.close());

  it("counts each key's requests in RateLimit-* headers and answers 429 { message } when spent", async () => {
    const mine = await newKey(small);
    const call = async (k: string) => {
      const url = `${V1}/verticals`;
      const res = await small.app.inject({ url, headers: { "x-api-key": k } });
      expectDocumented(res, url);
      return res;
    };
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await call(mine);
      expect(res.statusCode).toBe(200);
      expect(res.headers["ratelimit-limit"]).toBe("3");
      remaining.push(String(res.headers["ratelimit-remaining"]));
    }
    expect(remaining).toEqual(["2", "1", "0"]);
    const spent = await call(mine);
    expect(spent.statusCode).toBe(429);
    expect(spent.json().message).toMatch(/Too many requests/);
    expect(Number(spent.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(spent.headers["ratelimit-reset"])).toBeGreaterThan(0);
    // Another key has its own window.
    expect((await call(await newKey(small))).statusCode).toBe(200);
  });
});
