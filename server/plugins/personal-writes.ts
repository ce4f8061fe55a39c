// A signed-in request that may write (any method but GET, HEAD and OPTIONS, on a route that does
// not say it keeps them) may change what the personal request answers (docs/decisions/0043).
// Before its answer leaves, the session's kept copy on this instance goes, and a browser gets a
// new personal version cookie, so that no instance answers it from a copy read before its write
// while the database's notification is on its way.
import type { FastifyInstance } from "fastify";
import type { Services } from "#core/services.ts";
import { AUTH_COOKIE } from "#core/auth/sessions.ts";
import { personalVersionCookie } from "#core/account/personal.ts";
import { PERSONAL_VERSION_COOKIE } from "#contracts/personal.ts";
import { sessionToken } from "../api/auth.ts";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * The route writes nothing of its user's personal parts (an ad impression report, posted on
     * every page view): the session's kept copy and the browser's kept answer stay.
     */
    keepsPersonalParts?: boolean;
  }
}

export function registerPersonalWrites(app: FastifyInstance, services: Services) {
  app.addHook("onSend", async (request, reply, payload) => {
    if (READS.has(request.method) || request.routeOptions.config.keepsPersonalParts) return payload;
    const token = sessionToken(request);
    if (!token) return payload;
    services.personalParts.wrote(token);
    // Unless the answer sets the version itself (a logout clears it).
    const told = [reply.getHeader("set-cookie") ?? []]
      .flat()
      .some((cookie) => String(cookie).startsWith(`${PERSONAL_VERSION_COOKIE}=`));
    if (request.cookies?.[AUTH_COOKIE] && !told)
      reply.header("set-cookie", personalVersionCookie(services.secureCookies));
    return payload;
  });
}
