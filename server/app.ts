// Assembles the one Fastify process: security headers, compression, static
// assets, the JSON API under /api and the React Router pages for the rest.
import crypto from "node:crypto";
import path from "node:path";
import compress from "@fastify/compress";
import cookie from "@fastify/cookie";
import rateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyServerFactory, type preHandlerAsyncHookHandler } from "fastify";
import type { Database } from "#db/client.ts";
import { createServices, type Services } from "#core/services.ts";
import { apiRoutes } from "./api/index.ts";
import { startAccountBackground } from "./api/auth.ts";
import { healthRoutes, registerLoadShedding } from "./api/health.ts";
import type { Config } from "./config.ts";
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from "./plugins/errors.ts";
import { registerInputHygiene } from "./plugins/input-hygiene.ts";
import { registerPages, type BuildSource } from "./plugins/react-router.ts";
import { registerSecurityHeaders } from "./plugins/security.ts";
import { registerStaticAssets } from "./plugins/static.ts";

export type AppOptions = {
  config: Config;
  db: Database;
  /** The React Router server build, or a loader for it (dev). Without it only the API is served. */
  build?: BuildSource;
  /** Directory of built client assets; omitted in dev, where Vite serves them. */
  clientDir?: string;
  dev?: boolean;
  serverFactory?: FastifyServerFactory;
};

export async function buildApp(options: AppOptions) {
  const { config, db } = options;
  const app = Fastify({
    logger:
      config.logLevel === "silent"
        ? false
        : {
            level: config.logLevel,
            redact: { paths: ["req.headers.authorization", "req.headers.cookie", "*.password", "*.confirmPassword"], remove: true },
            serializers: { req: requestLogFields },
          },
    genReqId: () => crypto.randomUUID(),
    bodyLimit: API_BODY_LIMIT,
    trustProxy: config.trustProxy,
    // Slow clients cannot hold sockets: headers within 10 s, the whole request within 30 s,
    // an idle socket closes after 2 minutes; keep-alive outlasts common load balancers' 60 s.
    connectionTimeout: 120_000,
    requestTimeout: 30_000,
    keepAliveTimeout: 72_000,
    frameworkErrors,
    clientErrorHandler,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    serverFactory: options.serverFactory,
  });
  const services: Services = createServices(db, {
    siteId: config.siteId,
    publicUrl: config.publicUrl,
    dataDir: config.dataDir,
    smtpUrl: config.smtpUrl,
    mailFrom: config.mailFrom,
    staffEmail: config.staffEmail,
    recaptcha: config.recaptcha,
    ipHashSalt: config.ipHashSalt,
    searchCacheSeconds: config.searchCacheSeconds,
    secureCookies: config.env === "production" && config.publicUrl.startsWith("https:"),
    log: { info: (m) => app.log.info(m), warn: (m) => app.log.warn(m), error: (m) => app.log.error(m) },
  });
  app.server.headersTimeout = 10_000;
  app.decorate("services", services);
  startAccountBackground(app, services);

  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  registerErrorHandling(app);
  await registerSecurityHeaders(app, config, { dev: Boolean(options.dev) });
  registerInputHygiene(app);
  // The API speaks JSON only: any other body answers 415.
  app.removeContentTypeParser("text/plain");
  await app.register(compress, { global: true, threshold: 1024 });
  await app.register(cookie);
  // Shed load (503 before any route work) when the event loop lags or the heap nears
  // its limit; /healthz and /readyz are exempt. See server/api/health.ts.
  await registerLoadShedding(app, config.pressure);
  await app.register(rateLimit, { global: false });
  // One search budget per address and instance, spent by the API's searches and the search pages alike.
  app.decorate("searchBudget", app.rateLimit({ max: config.searchRateLimitPerMinute, timeWindow: 60_000 }));

  await app.register(healthRoutes, { services });
  await app.register(apiRoutes, { prefix: "/api", services });
  if (options.clientDir) await registerStaticAssets(app, options.clientDir);
  if (options.build) {
    await registerPages(app, {
      build: options.build,
      services,
      mode: options.dev ? "development" : "production",
      pageCacheSeconds: options.dev ? 0 : config.pageCacheSeconds,
    });
  }
  return app;
}

declare module "fastify" {
  interface FastifyInstance {
    services: Services;
    searchBudget: preHandlerAsyncHookHandler;
  }
}

/** What the log keeps of a request: never a secret from its address (reset links carry their token there). */
export function requestLogFields(request: { method: string; url: string; ip?: string }) {
  return { method: request.method, url: request.url.replace(/([?&](?:token|api_key|key)=)[^&#]*/gi, "$1[hidden]"), remoteAddress: request.ip };
}

/** Largest JSON body the API reads (multipart uploads have their own limits). */
export const API_BODY_LIMIT = 256 * 1024;

export const BUILD_DIR = path.resolve(import.meta.dirname, "..", "build");
