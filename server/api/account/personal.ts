// The personal parts of a shared signed-in page (docs/decisions/0029): who is signed
// in and which of the page's offers and networks they follow, in one small answer.
import type { FastifyInstance } from "fastify";
import type { Services } from "#core/services.ts";
import { personalQuery, type PersonalParts } from "#contracts/personal.ts";
import { sessionCookie } from "#core/auth/sessions.ts";
import { loggedInUserOr401 } from "../auth.ts";

export async function personalRoutes(api: FastifyInstance, { services }: { services: Services }) {
  api.get("/account/personal", async (request, reply): Promise<PersonalParts> => {
    // A shared page is served on the session cookie alone: one that no longer signs anyone in
    // is cleared here, so the page the browser then reloads is the anonymous one.
    if (!request.user) reply.header("set-cookie", sessionCookie(null, services.secureCookies));
    const user = loggedInUserOr401(request);
    const on = personalQuery.parse(request.query ?? {});
    const { offers, networks } = await services.watchlist.followedAmong(user.id, on);
    reply.header("cache-control", "private, no-store");
    return { user: { name: user.name, email: user.email, scope: user.scope }, watch: { offers, networks } };
  });
}
