// @fastify/static: the built client assets. Files under /assets carry a content
// hash in their name, so they are cached for a year; everything else is revalidated.
// The build writes each script and stylesheet compressed beside it (.br, .gz), which
// is sent as it is where the browser accepts it (docs/decisions/0036).
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { ASSETS_PREFIX, REFERRER_POLICY } from "./helmet.ts";

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
      const fingerprinted = filePath.startsWith(path.join(clientDir, ASSETS_PREFIX));
      reply.header("cache-control", fingerprinted ? "public, max-age=31536000, immutable" : "public, max-age=3600");
      // These go without helmet (helmet.ts); what does apply to a script or stylesheet: no
      // sniffing, same-origin use only, and the referrer its own requests (fonts, images) send.
      if (fingerprinted)
        reply
          .header("x-content-type-options", "nosniff")
          .header("cross-origin-resource-policy", "same-origin")
          .header("referrer-policy", REFERRER_POLICY);
    },
  });
}
