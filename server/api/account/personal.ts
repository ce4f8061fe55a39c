// The personal parts of a shared signed-in page (docs/decisions/0029): who is signed
// in and which of the page's offers and networks they follow, in one small answer.
import type { FastifyInstance, FastifyReply } from "fastify";
import type { Services } from "#core/services.ts";
import {
  PERSONAL_VERSION_COOKIE,
  PERSONAL_VERSION_MAX_AGE_SECONDS,
  personalQuery,
  type PersonalParts,
} from "#contracts/personal.ts";
import { HttpError } from "#core/errors.ts";
import { NOT_LOGGED_IN } from "#core/auth/auth.ts";
import { endSessionInBrowser, sessionToken } from "../auth.ts";

export async function personalRoutes(api: FastifyInstance, { services }: { services: Services }) {
  // Every signed-in page view asks for these: the session is read with them, in one statement.
  api.get("/account/personal", { config: { ownSession: true } }, async (request, reply): Promise<PersonalParts> => {
    const token = sessionToken(request);
    const { v: asked, ...on } = personalQuery.parse(request.query ?? {});
    const browserVersion = request.cookies[PERSONAL_VERSION_COOKIE];
    if (asked !== undefined) {
      // Every follow, for the browser to keep under this address while the version is its own.
      const all = token ? await services.personalParts.all(token, browserVersion) : null;
      if (!all) return signedOut(reply);
      reply.header(
        "cache-control",
        all.version === asked ? `private, max-age=${PERSONAL_VERSION_MAX_AGE_SECONDS}, immutable` : "private, no-store",
      );
      return all.parts;
    }
    const parts = token ? await services.personalParts.read(token, on, browserVersion) : null;
    if (!parts) return signedOut(reply);
    reply.header("cache-control", "private, no-store");
    return parts;
  });

  /** A session that signs nobody in is ended in the browser: a page it then loads is the anonymous one. */
  function signedOut(reply: FastifyReply): never {
    endSessionInBrowser(reply, services.secureCookies);
    throw new HttpError(401, NOT_LOGGED_IN);
  }
}
