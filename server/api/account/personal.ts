// The personal parts of a shared signed-in page (docs/decisions/0029): who is signed
// in and which of the page's offers and networks they follow, in one small answer.
import type { FastifyInstance } from "fastify";
import type { Services } from "#core/services.ts";
import { personalQuery, type PersonalParts } from "#contracts/personal.ts";
import { HttpError } from "#core/errors.ts";
import { NOT_LOGGED_IN } from "#core/auth/auth.ts";
import { sessionCookie } from "#core/auth/sessions.ts";
import { PERSONAL_VERSION_COOKIE } from "#core/account/personal.ts";
import { sessionToken } from "../auth.ts";

export async function personalRoutes(api: FastifyInstance, { services }: { services: Services }) {
  // Every signed-in page view asks for these: the session is read with them, in one statement.
  api.get("/account/personal", { config: { ownSession: true } }, async (request, reply): Promise<PersonalParts> => {
    const token = sessionToken(request);
    const on = personalQuery.parse(request.query ?? {});
    const parts = token ? await services.personalParts.read(token, on, request.cookies[PERSONAL_VERSION_COOKIE]) : null;
    if (!parts) {
      // A shared page is served on the session cookie alone: one that no longer signs anyone in
      // is cleared here, so the page the browser then reloads is the anonymous one.
      reply.header("set-cookie", sessionCookie(null, services.secureCookies));
      throw new HttpError(401, NOT_LOGGED_IN);
    }
    reply.header("cache-control", "private, no-store");
    return parts;
  });
}
