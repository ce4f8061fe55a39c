// The public read API under /api/v1 (issue #14): API keys, a per-key rate limit with
// the IETF RateLimit-* headers, CORS for reads, weak ETags with 304, and the OpenAPI
// document, the only address here that needs no key.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Services } from "#core/services.ts";
import { HttpError, notFound } from "#core/errors.ts";
import { createApiDocument } from "#core/api/openapi.ts";
import { V1_RATE_WINDOW_SECONDS } from "#contracts/v1.ts";
import { v1Resources } from "./resources.ts";
import { sendRead } from "./conditional.ts";

export type V1Options = { services: Services; publicUrl: string; requestsPerMinute: number };

const NO_KEY = "An API key is required: send it as Authorization: Bearer <key> or X-Api-Key: <key>";
const BAD_KEY = "This API key is not valid or has been revoked";
const SPENT = "Too many requests for this API key, please wait for the window to reset";

declare module "fastify" {
  interface FastifyContextConfig {
    /** A /api/v1 route anyone may read without a key. */
    keyless?: boolean;
  }
}

/** The key as sent: a bearer token or the X-Api-Key header. */
function presentedKey(request: FastifyRequest): string | null {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "");
  if (bearer) return bearer[1];
  const header = request.headers["x-api-key"];
  return typeof header === "string" && header.trim() ? header.trim() : null;
}

export async function v1Routes(api: FastifyInstance, options: V1Options) {
  const { services, requestsPerMinute } = options;

  // CORS for reads from any origin: a key, not a cookie, authorises, so no credentials are involved.
  api.addHook("onRequest", async (_request, reply) => {
    reply.header("access-control-allow-origin", "*");
    reply.header(
      "access-control-expose-headers",
      "ETag, Link, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After",
    );
  });

  api.addHook("onRequest", async (request, reply) => {
    if (request.method === "OPTIONS" || request.routeOptions.config.keyless) return;
    const presented = presentedKey(request);
    if (!presented) throw new HttpError(401, NO_KEY, { "www-authenticate": "Bearer" });
    const key = await services.apiKeys.verify(presented);
    if (!key) throw new HttpError(401, BAD_KEY, { "www-authenticate": 'Bearer error="invalid_token"' });
    const count = await services.rateLimits.hit(`api-key:${key.keyId}`, requestsPerMinute, V1_RATE_WINDOW_SECONDS);
    reply.header("ratelimit-limit", String(requestsPerMinute));
    reply.header("ratelimit-remaining", String(count.remaining));
    reply.header("ratelimit-reset", String(count.retryAfterSeconds));
    if (!count.allowed) throw new HttpError(429, SPENT, { "Retry-After": String(count.retryAfterSeconds) });
    // Per key, and revalidated each time: the ETag makes that cheap.
    reply.header("cache-control", "private, no-cache");
  });

  const document = createApiDocument(options.publicUrl);
  api.get("/openapi.json", { config: { keyless: true } }, async (request, reply) =>
    sendRead(request, reply.header("cache-control", "public, max-age=300"), document),
  );

  await api.register(v1Resources, { services });

  api.options("/*", async (_request, reply) =>
    reply
      .status(204)
      .header("access-control-allow-methods", "GET, HEAD, OPTIONS")
      .header("access-control-allow-headers", "Authorization, X-Api-Key, If-None-Match")
      .header("access-control-max-age", "600")
      .send(),
  );
  // Unknown addresses and other methods: after the key check, so anonymous callers learn nothing.
  api.route({
    method: ["GET", "POST", "PUT", "PATCH", "DELETE"],
    url: "/*",
    handler: async () => {
      throw notFound();
    },
  });
}
