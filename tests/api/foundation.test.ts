import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_DIR } from "#server/app.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 10, offers: 200, trafficSources: 4 } });
});
afterAll(() => t?.close());

describe("API plumbing", () => {
  it("reports liveness and readiness", async () => {
    expect((await t.app.inject("/healthz")).json()).toEqual({ status: "ok" });
    const ready = await t.app.inject("/readyz");
    expect(ready.statusCode).toBe(200);
    expect(ready.json().database).toBe(t.db.kind);
  });

  it("answers readiness 503 when the database is gone", async () => {
    const broken = await createTestApp({ seed: false });
    await broken.db.close();
    const res = await broken.app.inject("/readyz");
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ message: "Database not reachable" });
    await broken.close();
  });

  it("answers 404 JSON with a message for an unknown API path", async () => {
    for (const method of ["GET", "POST", "DELETE"] as const) {
      const res = await t.app.inject({ method, url: "/api/no-such-thing" });
      expect(res.statusCode).toBe(404);
      expect(res.headers["content-type"]).toMatch(/application\/json/);
      expect(res.json()).toEqual({ message: "Not found" });
    }
  });

  it("resolves the site from the header or the query, defaulting when missing or empty", async () => {
    expect((await t.app.inject("/api/ping")).json()).toEqual({ site: "offeratlas" });
    expect((await t.app.inject("/api/ping?site=")).json()).toEqual({ site: "offeratlas" });
    expect((await t.app.inject({ url: "/api/ping", headers: { "x-site": "offeratlas" } })).json()).toEqual({
      site: "offeratlas",
    });
    const unknown = await t.app.inject("/api/ping?site=elsewhere");
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ message: "Unknown site" });
    const header = await t.app.inject({ url: "/api/ping", headers: { "x-site": "nope" } });
    expect(header.statusCode).toBe(400);
  });

  it("turns a malformed JSON body into 400 { message } rather than a 500", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/ping",
      headers: { "content-type": "application/json" },
      payload: "{oops",
    });
    expect(res.statusCode).toBe(400);
    expect(typeof res.json().message).toBe("string");
  });

  it("refuses an oversized body with 413 { message }", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/anything",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ blob: "x".repeat(300 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(typeof res.json().message).toBe("string");
  });

  it("tags every answer with a request id", async () => {
    const a = await t.app.inject("/healthz");
    const b = await t.app.inject("/healthz");
    expect(a.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers["x-request-id"]).not.toBe(b.headers["x-request-id"]);
  });
});

describe("security headers", () => {
  it("sends a nonce-based CSP and the strict headers on pages", async () => {
    const res = await t.app.inject("/");
    const csp = String(res.headers["content-security-policy"]);
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    // Every inline script the page carries is allowed by that nonce, and no other.
    const scripts = [...res.body.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const attrs of scripts) expect(attrs).toContain(`nonce="${nonce}"`);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["x-frame-options"]).toBe("SAMEORIGIN");
    expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    const again = await t.app.inject("/");
    expect(String(again.headers["content-security-policy"])).not.toContain(nonce);
  });
});

describe("static assets", () => {
  it("serves fingerprinted assets with a year of caching, compressed", async () => {
    const page = await t.app.inject("/");
    const css = /href="(\/assets\/[^"]+\.css)"/.exec(page.body)?.[1];
    expect(css).toBeTruthy();
    const res = await t.app.inject({ url: css!, headers: { "accept-encoding": "br, gzip" } });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(["br", "gzip"]).toContain(res.headers["content-encoding"]);
  });

  it("sends each script as the build compressed it, the same bytes, with only the headers a script needs", async () => {
    const page = await t.app.inject("/");
    const script = /src="(\/assets\/entry\.client-[^"]+\.js)"|"(\/assets\/entry\.client-[^"]+\.js)"/.exec(page.body);
    const url = script?.[1] ?? script?.[2];
    expect(url).toBeTruthy();
    const plain = await t.app.inject({ url: url!, headers: { "accept-encoding": "identity" } });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    for (const [encoding, decode] of [
      ["br", zlib.brotliDecompressSync],
      ["gzip", zlib.gunzipSync],
    ] as const) {
      const res = await t.app.inject({ url: url!, headers: { "accept-encoding": encoding } });
      expect(res.headers["content-encoding"], encoding).toBe(encoding);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(decode(res.rawPayload).equals(plain.rawPayload), encoding).toBe(true);
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    }
    // The build's own compressed copy, not one made per request.
    const best = await t.app.inject({ url: url!, headers: { "accept-encoding": "br" } });
    expect(best.rawPayload.equals(fs.readFileSync(path.join(BUILD_DIR, "client", `${url!}.br`)))).toBe(true);
    // A script is no document: nosniff and its resource policy, none of a page's framing or script rules.
    expect(best.headers["x-content-type-options"]).toBe("nosniff");
    expect(best.headers["cross-origin-resource-policy"]).toBe("same-origin");
    expect(best.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    for (const name of ["content-security-policy", "x-frame-options", "cross-origin-opener-policy"])
      expect(best.headers[name], name).toBeUndefined();
  });

  it("answers a script over a socket as through Fastify: the same bytes and headers, 304 to its ETag, HEAD bare", async () => {
    // Over a socket, scripts come from memory before Fastify's routing (plugins/external/static.ts).
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = t.app.server.address() as AddressInfo;
    const get = (url: string, headers: http.OutgoingHttpHeaders, method = "GET") =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const req = http.request({ host: "127.0.0.1", port, path: url, method, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on("error", reject).end();
      });
    const page = await t.app.inject("/");
    // In the page's inline loader (app/ui/shell/PageScripts.tsx), some inside a JS string: \"…\".
    const scripts = [...page.body.matchAll(/\\?"(\/assets\/[\w.-]+\.js)\\?"/g)].map((m) => m[1]);
    const css = /href="(\/assets\/[^"]+\.css)"/.exec(page.body)![1];
    expect(scripts.length).toBeGreaterThan(5);
    const shared = ["content-type", "content-encoding", "cache-control", "vary", "x-content-type-options"];
    const alsoShared = [
      "cross-origin-resource-policy",
      "referrer-policy",
      "content-security-policy",
      "x-frame-options",
    ];
    const file = (url: string) => path.join(BUILD_DIR, "client", url);
    for (const url of [...new Set(scripts), css])
      for (const [encoding, suffix] of [
        ["br", ".br"],
        ["gzip", ".gz"],
        ["identity", ""],
        ["gzip, br;q=0", ".gz"],
      ]) {
        const viaSocket = await get(url, { "accept-encoding": encoding });
        expect(viaSocket.status, url).toBe(200);
        if (!fs.existsSync(file(url) + suffix)) {
          // No copy smaller than the file (the build keeps none): the file itself.
          expect(viaSocket.headers["content-encoding"]).toBeUndefined();
          expect(viaSocket.body.equals(fs.readFileSync(file(url)))).toBe(true);
          continue;
        }
        const viaFastify = await t.app.inject({ url, headers: { "accept-encoding": encoding } });
        expect(viaSocket.body.equals(viaFastify.rawPayload), `${url} ${encoding}`).toBe(true);
        for (const name of [...shared, ...alsoShared])
          expect(viaSocket.headers[name], `${url} ${encoding}: ${name}`).toBe(viaFastify.headers[name]);
      }
    const first = await get(scripts[0], { "accept-encoding": "br" });
    expect(first.headers.etag).toBeTruthy();
    const again = await get(scripts[0], { "accept-encoding": "br", "if-none-match": first.headers.etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const head = await get(scripts[0], { "accept-encoding": "br" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe(String(first.body.length));
    // What is not a built asset still goes through Fastify.
    expect((await get("/assets/none-such.js", {})).status).toBe(404);
    expect((await get(`${scripts[0]}x`, {})).status).toBe(404);
    const post = await t.app.inject({ method: "POST", url: scripts[0] });
    expect((await get(scripts[0], {}, "POST")).status).toBe(post.statusCode);
  });

  it("revalidates files whose names carry no hash", async () => {
    const res = await t.app.inject("/favicon.svg");
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=3600");
  });
});
