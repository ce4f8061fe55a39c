// @fastify/static: the built client assets. Files under /assets carry a content
// hash in their name, so they are cached for a year; everything else is revalidated.
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

export async function registerStaticAssets(app: FastifyInstance, clientDir: string) {
  await app.register(fastifyStatic, {
    root: clientDir,
    prefix: "/",
    wildcard: false,
    index: false,
    cacheControl: false,
    setHeaders(res, filePath) {
      const fingerprinted = filePath.startsWith(path.join(clientDir, "assets") + path.sep);
      res.header("cache-control", fingerprinted ? "public, max-age=31536000, immutable" : "public, max-age=3600");
    },
  });
}
