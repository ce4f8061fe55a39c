// @fastify/static: the built client assets. Files under /assets carry a content
// hash in their name, so they are cached for a year; everything else is revalidated.
// The build writes each script and stylesheet compressed beside it (.br, .gz), which
// is sent as it is where the browser accepts it (docs/decisions/0036).
//
// A page loads some 35 scripts at once. Over a socket, the fingerprinted ones are answered
// from memory before Fastify's routing and hooks (`assetsInMemory`, used by app.ts), with the
// same headers and bytes @fastify/static sends, which still answers everything else.
import crypto from "node:crypto";
import fs from "node:fs";
import type http from "node:http";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { ASSETS_PREFIX, REFERRER_POLICY } from "./helmet.ts";

/**
 * What a fingerprinted script or stylesheet is sent with. These go without helmet (helmet.ts);
 * what does apply to one: no sniffing, same-origin use only, and the referrer its own requests
 * (fonts, images) send.
 */
const FINGERPRINTED_HEADERS = {
  "cache-control": "public, max-age=31536000, immutable",
  "x-content-type-options": "nosniff",
  "cross-origin-resource-policy": "same-origin",
  "referrer-policy": REFERRER_POLICY,
};

export async function registerStaticAssets(app: FastifyInstance, clientDir: string) {
  await app.register(fastifyStatic, {
    root: clientDir,
    prefix: "/",
    wildcard: false,
    index: false,
    cacheControl: false,
    preCompressed: true,
    // A page loads some 30 files at once, and two log lines were a third of each one's time.
    logLevel: "warn",
    setHeaders(reply, filePath) {
      if (filePath.startsWith(path.join(clientDir, ASSETS_PREFIX))) reply.headers(FINGERPRINTED_HEADERS);
      else reply.header("cache-control", "public, max-age=3600");
    },
  });
}

/** The types of what the build puts under /assets/ (anything else is left to @fastify/static). */
const ASSET_TYPES: Record<string, string> = {
  ".js": "application/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

type Asset = { type: string; etag: string; br?: Buffer; gzip?: Buffer; identity: Buffer };

/** Whether Accept-Encoding takes `coding` (named, and not with q=0). */
function accepts(header: string | undefined, coding: "br" | "gzip"): boolean {
  for (const part of (header ?? "").toLowerCase().split(",")) {
    const [name, ...params] = part.split(";").map((s) => s.trim());
    if (name !== coding) continue;
    const q = params.find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}

/**
 * The build's fingerprinted scripts and stylesheets, read once (about 2 MB with their compressed
 * copies). `serve` answers a GET or HEAD of one and returns true; anything else returns false,
 * for Fastify to answer.
 */
export function assetsInMemory(clientDir: string) {
  const dir = path.join(clientDir, ASSETS_PREFIX);
  const assets = new Map<string, Asset>();
  for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
    const type = ASSET_TYPES[path.extname(entry.name)];
    if (!entry.isFile() || !type) continue;
    const file = path.join(dir, entry.name);
    const copy = (suffix: string) => (fs.existsSync(file + suffix) ? fs.readFileSync(file + suffix) : undefined);
    const identity = fs.readFileSync(file);
    const etag = `"${crypto.createHash("sha256").update(identity).digest("base64url").slice(0, 22)}"`;
    assets.set(ASSETS_PREFIX + entry.name, { type, etag, br: copy(".br"), gzip: copy(".gz"), identity });
  }

  return {
    serve(req: http.IncomingMessage, res: http.ServerResponse): boolean {
      if (req.method !== "GET" && req.method !== "HEAD") return false;
      const url = req.url ?? "";
      const query = url.indexOf("?");
      const asset = assets.get(query < 0 ? url : url.slice(0, query));
      if (!asset) return false;
      const acceptEncoding = req.headers["accept-encoding"];
      const [encoding, body] =
        asset.br && accepts(acceptEncoding, "br")
          ? ["br", asset.br]
          : asset.gzip && accepts(acceptEncoding, "gzip")
            ? ["gzip", asset.gzip]
            : [undefined, asset.identity];
      const headers: http.OutgoingHttpHeaders = { ...FINGERPRINTED_HEADERS, etag: asset.etag, vary: "accept-encoding" };
      if (req.headers["if-none-match"]?.split(",").some((tag) => tag.trim() === asset.etag)) {
        res.writeHead(304, headers).end();
        return true;
      }
      res.writeHead(200, {
        ...headers,
        "content-type": asset.type,
        "content-length": body.length,
        ...(encoding ? { "content-encoding": encoding } : {}),
      });
      res.end(req.method === "HEAD" ? undefined : body);
      return true;
    },
  };
}
