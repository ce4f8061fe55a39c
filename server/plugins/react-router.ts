// Mounts the React Router request handler on every path the API does not own.
// Fastify's body parsers are removed in this scope so form posts reach route
// actions as the raw stream, exactly as the browser sent them.
import type { Readable } from "node:stream";
import { Readable as NodeReadable } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import type { RequestContext } from "#app/context.ts";
import type { Services } from "#core/services.ts";
import { AUTH_COOKIE, stripBearer } from "#contracts/auth.ts";
import { createPageCache } from "./page-cache.ts";

export type BuildSource = ServerBuild | (() => Promise<ServerBuild>);

type ContextKey = Parameters<RouterContextProvider["set"]>[0];

export async function registerPages(
  app: FastifyInstance,
  options: { build: BuildSource; services: Services; mode: "development" | "production"; pageCacheSeconds: number },
) {
  const { build, services } = options;
  const pageCache = createPageCache({ ttlMs: options.pageCacheSeconds * 1000, maxEntries: 200 });
  const handle = createRequestHandler(build, options.mode);
  const loadBuild = typeof build === "function" ? build : async () => build;

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_request, payload, done) => done(null, payload));

    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const nonce = reply.raw.cspNonce ?? "";
      const cacheable = pageCache.eligible(request.method, request.headers);
      const hit = cacheable ? pageCache.get(request.url, nonce) : undefined;
      if (hit) {
        for (const [name, val] of hit.headers) reply.header(name, val);
        return reply.status(hit.status).header("x-page-cache", "hit").send(hit.body);
      }

      const current = await loadBuild();
      const key = (current.entry.module as unknown as { requestContext: ContextKey }).requestContext;
      const site = await services.sites.resolve(undefined);
      const context = new RouterContextProvider();
      const value: RequestContext = {
        services,
        site,
        nonce,
        requestId: request.id,
        clientIp: request.ip,
        user: await services.auth.userForToken(stripBearer(request.cookies?.[AUTH_COOKIE])),
      };
      context.set(key, value);

      const controller = new AbortController();
      reply.raw.once("close", () => controller.abort());
      const response = await handle(toWebRequest(request, controller.signal), context);

      reply.status(response.status);
      for (const [name, val] of response.headers) {
        if (name !== "set-cookie") reply.header(name, val);
      }
      const cookies = response.headers.getSetCookie();
      if (cookies.length) reply.header("set-cookie", cookies);
      if (!response.headers.has("cache-control")) reply.header("cache-control", "no-cache");
      if (cacheable && response.body) {
        const body = await response.text();
        pageCache.offer(request.url, { status: response.status, headers: [...response.headers], body, nonce });
        return reply.send(body);
      }
      return reply.send(response.body ? NodeReadable.fromWeb(response.body as import("node:stream/web").ReadableStream) : null);
    };

    scope.route({ method: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"], url: "/", handler });
    scope.route({ method: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"], url: "/*", handler });
  });
}

function toWebRequest(request: FastifyRequest, signal: AbortSignal): Request {
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const init: RequestInit & { duplex?: "half" } = { method: request.method, headers, signal };
  if (request.method !== "GET" && request.method !== "HEAD" && request.body) {
    init.body = createReadableStreamFromReadable(request.body as Readable);
    init.duplex = "half";
  }
  return new Request(url, init);
}
