// @fastify/static: the built client assets. Files under /assets carry a content
// hash in their name, so they are cached for a year; everything else is revalidated.
// The build writes each script and stylesheet compressed beside it (.br, .gz), which
// is sent as it is where the browser accepts it (docs/decisions/0036).
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

const DOCUMENT_ONLY_HEADERS = [
  "content-security-policy",
  "x-frame-options",
  "cross-origin-opener-policy",
  "origin-agent-cluster",
  "x-xss-protection",
  "x-download-options",
  "x-dns-prefetch-control",
  "x-permitted-cross-domain-policies",
];

export async function registerStaticAssets(app: FastifyInstance, clientDir: string) {
  await app.register(fastifyStatic, {
    root: clientDir,
    prefix: "/",
    wildcard: false,
    index: false,
    cacheControl: false,
    preCompressed: true,
    setHeaders(res, filePath) {
      const fingerprinted = filePath.startsWith(path.join(clientDir, "assets") + path.sep);
      res.header("cache-control", fingerprinted ? "public, max-age=31536000, immutable" : "public, max-age=3600");
      // A script or stylesheet is no document: the headers that rule a document's framing,
      // scripts and window do nothing on it, and a page loads some 20 of them on a slow link.
      // What does apply stays (nosniff, Cross-Origin-Resource-Policy, Referrer-Policy, HSTS).
      if (fingerprinted) for (const name of DOCUMENT_ONLY_HEADERS) res.removeHeader(name);
    },
  });
}
