// Assembles the one Fastify process: the core services, then the plugins in the
// order a request meets them (third-party ones in plugins/external/), the JSON API
// under /api and the React Router pages for every other path.
import crypto from "node:crypto";
import http from "node:http";
import path from "node:path";
import Fastify, { type FastifyServerFactory } from "fastify";
import type { Database } from "#db/client.ts";
import { createServices, type Services } from "#core/services.ts";
import { connectShared } from "#core/cache/redis.ts";
import { apiRoutes } from "./api/index.ts";
import { healthRoutes } from "./api/health.ts";
import type { Config } from "./config.ts";
import { registerBackground } from "./plugins/background.ts";
import { registerDatabaseAdmission } from "./plugins/database-admission.ts";
import { registerOfferSync } from "./plugins/offer-sync.ts";
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from "./plugins/errors.ts";
import { registerCompression } from "./plugins/external/compress.ts";
import { registerCookies } from "./plugins/external/cookie.ts";
import { registerSecurityHeaders } from "./plugins/external/helmet.ts";
import { registerRateLimits } from "./plugins/external/rate-limit.ts";
import { assetsInMemory, registerStaticAssets } from "./plugins/external/static.ts";
import { registerUnderPressure } from "./plugins/external/under-pressure.ts";
import { registerInputHygiene } from "./plugins/input-hygiene.ts";
import { registerMedia } from "./plugins/media.ts";
import { registerApiDocs } from "./plugins/api-docs.ts";
import { registerAdRoutes } from "./plugins/ads.ts";
import { registerPages, type BuildSource } from "./plugins/react-router.ts";
import { registerPersonalWrites } from "./plugins/personal-writes.ts";

export type AppOptions = {
  config: Config;
  db: Database;
  /** DATABASE_READ_URL's pool: searches read there (a replica). */
  readDb?: Database;
  /** The React Router server build, or a loader for it (dev). Without it only the API is served. */
  build?: BuildSource;
  /** Directory of built client assets; omitted in dev, where Vite serves them. */
  clientDir?: string;
  dev?: boolean;
  serverFactory?: FastifyServerFactory;
};

/**
 * Slow clients cannot hold sockets: headers within 10 s (app.server.headersTimeout), the whole
 * request within 30 s, an idle socket closes after 2 minutes; keep-alive outlasts common load
 * balancers' 60 s.
 */
const TIMEOUTS = { connectionTimeout: 120_000, requestTimeout: 30_000, keepAliveTimeout: 72_000 };

/**
 * The server Fastify would make (its timeouts included), answering the build's fingerprinted
 * scripts and stylesheets from memory before Fastify sees the request (plugins/external/static.ts).
 */
function serverWithAssets(clientDir: string): FastifyServerFactory {
  const assets = assetsInMemory(clientDir);
  return (handler) => {
    const server = http.createServer((req, res) => {
      if (!assets.serve(req, res)) handler(req, res);
    });
    server.keepAliveTimeout = TIMEOUTS.keepAliveTimeout;
    server.requestTimeout = TIMEOUTS.requestTimeout;
    server.setTimeout(TIMEOUTS.connectionTimeout);
    return server;
  };
}

export async function buildApp(options: AppOptions) {
  const { config, db } = options;
  const app = Fastify({
    logger:
      config.logLevel === "silent"
        ? false
        : {
            level: config.logLevel,
            redact: {
              paths: ["req.headers.authorization", "req.headers.cookie", "*.password", "*.confirmPassword"],
              remove: true,
            },
            serializers: { req: requestLogFields },
          },
    genReqId: () => crypto.randomUUID(),
    bodyLimit: API_BODY_LIMIT,
    trustProxy: config.trustProxy,
    ...TIMEOUTS,
    frameworkErrors,
    clientErrorHandler,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    serverFactory: options.serverFactory ?? (options.clientDir ? serverWithAssets(options.clientDir) : undefined),
  });
  app.server.headersTimeout = 10_000;
  // REDIS_URL: caches, the catalogue's generation and the search budget shared by every instance.
  const shared = config.redisUrl
    ? await connectShared(config.redisUrl, { prefix: config.redisPrefix, log: app.log })
    : undefined;
  if (shared) app.addHook("onClose", () => shared.close());
  const services = createServices(db, {
    siteId: config.siteId,
    publicUrl: config.publicUrl,
    dataDir: config.dataDir,
    smtpUrl: config.smtpUrl,
    mailFrom: config.mailFrom,
    staffEmail: config.staffEmail,
    recaptcha: config.recaptcha,
    ipHashSalt: config.ipHashSalt,
    searchCacheSeconds: config.searchCacheSeconds,
    holdFirstReviews: config.holdFirstReviews,
    secretsKey: config.secretsKey,
    secureCookies: config.env === "production" && config.publicUrl.startsWith("https:"),
    shared,
    readDb: options.readDb,
    log: { info: (m) => app.log.info(m), warn: (m) => app.log.warn(m), error: (m) => app.log.error(m) },
  });
  app.decorate("services", services);
  registerBackground(app, services);
  registerOfferSync(app, services, config.offerSyncScheduler);

  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  registerErrorHandling(app);
  await registerSecurityHeaders(app, config, { dev: Boolean(options.dev) });
  registerInputHygiene(app);
  // The API speaks JSON only: any other body answers 415.
  app.removeContentTypeParser("text/plain");
  await registerCompression(app);
  await registerCookies(app);
  registerPersonalWrites(app, services);
  await registerUnderPressure(app, config.pressure);
  registerDatabaseAdmission(app);
  await registerRateLimits(app, config, shared?.redis);

  await app.register(healthRoutes, { services });
  await app.register(apiRoutes, {
    prefix: "/api",
    services,
    v1: { publicUrl: config.publicUrl, requestsPerMinute: config.apiKeyRateLimitPerMinute },
  });
  registerMedia(app, config.dataDir);
  registerApiDocs(app);
  registerAdRoutes(app);
  if (options.clientDir) await registerStaticAssets(app, options.clientDir);
  if (options.build) {
    await registerPages(app, {
      build: options.build,
      services,
      mode: options.dev ? "development" : "production",
      pageCacheSeconds: options.dev ? 0 : config.pageCacheSeconds,
      sharedStore: shared?.store,
    });
  }
  return app;
}

declare module "fastify" {
  interface FastifyInstance {
    services: Services;
  }
}

/** What the log keeps of a request: never a secret from its address (reset links carry their token there). */
export function requestLogFields(request: { method: string; url: string; ip?: string }) {
  return {
    method: request.method,
    url: request.url.replace(/([?&](?:token|api_key|key)=)[^&#]*/gi, "$1[hidden]"),
    remoteAddress: request.ip,
  };
}

/** Largest JSON body the API reads (multipart uploads have their own limits). */
const API_BODY_LIMIT = 256 * 1024;

export const BUILD_DIR = path.resolve(import.meta.dirname, "..", "build");
