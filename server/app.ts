// Assembles the one Fastify process: security headers, compression, static
// assets, the JSON API under /api and the React Router pages for the rest.
import crypto from "node:crypto";
import path from "node:path";
import compress from "@fastify/compress";
import cookie from "@fastify/cookie";
import rateLimit from "@fastify/rate-limit";
import underPressure from "@fastify/under-pressure";
import Fastify, { type FastifyServerFactory } from "fastify";
import type { Database } from "#db/client.ts";
import { createServices, type Services } from "#core/services.ts";
import { apiRoutes } from "./api/index.ts";
import { startAccountBackground } from "./api/auth.ts";
import { healthRoutes } from "./api/health.ts";
import type { Config } from "./config.ts";
import { registerErrorHandling } from "./plugins/errors.ts";
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
          },
    genReqId: () => crypto.randomUUID(),
    bodyLimit: 256 * 1024,
    trustProxy: config.trustProxy,
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
    searchRateLimitPerMinute: config.searchRateLimitPerMinute,
    secureCookies: config.env === "production" && config.publicUrl.startsWith("https:"),
    log: { info: (m) => app.log.info(m), warn: (m) => app.log.warn(m), error: (m) => app.log.error(m) },
  });
  app.decorate("services", services);
  startAccountBackground(app, services);

  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  registerErrorHandling(app);
  await registerSecurityHeaders(app, config, { dev: Boolean(options.dev) });
  await app.register(compress, { global: true, threshold: 1024 });
  await app.register(cookie);
  // Shed load when the event loop stalls. The embedded database runs on this very
  // loop, so there a long query is not overload and the check would refuse real work.
  await app.register(underPressure, { maxEventLoopDelay: db.kind === "postgres" ? 2000 : 0, exposeStatusRoute: false });
  await app.register(rateLimit, { global: false });

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
  }
}

export const BUILD_DIR = path.resolve(import.meta.dirname, "..", "build");
