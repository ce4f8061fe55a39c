// Swagger UI's two files for the /developers page, served from our own origin
// (docs/decisions/0022-swagger-ui-self-hosted.md): no CDN, and nothing the page's
// Content-Security-Policy has to make room for. Only these named files are
// served, read from the installed swagger-ui-dist package, never a path a client picks.
import fs from "node:fs/promises";
import path from "node:path";
import { createRequire } from "node:module";
import type { FastifyInstance } from "fastify";
import { notFound } from "#core/errors.ts";
import { SWAGGER_UI_PREFIX } from "#contracts/v1-docs.ts";

const FILES: Record<string, string> = {
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui.css": "text/css; charset=utf-8",
};

const packageDir = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

export function registerApiDocs(app: FastifyInstance) {
  const loaded = new Map<string, Promise<Buffer>>();
  app.get<{ Params: { file: string } }>(`${SWAGGER_UI_PREFIX}:file`, async (request, reply) => {
    const { file } = request.params;
    const type = Object.hasOwn(FILES, file) ? FILES[file] : undefined;
    if (!type) throw notFound();
    // Read once per process: the package does not change while the server runs.
    if (!loaded.has(file)) loaded.set(file, fs.readFile(path.join(packageDir, file)));
    const bytes = await loaded.get(file)!;
    // The files change only with the package; a day's caching is safe and revalidation cheap.
    return reply.type(type).header("cache-control", "public, max-age=86400").send(bytes);
  });
}
