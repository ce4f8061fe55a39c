// The signed-in user's watchlist (issue #14): list, follow an offer or a network,
// unfollow. Thin adapters over services.watchlist; every route needs a session.
import type { FastifyInstance } from "fastify";
import type { Services } from "#core/services.ts";
import { notFound } from "#core/errors.ts";
import { WATCHLIST_MESSAGES, watchItemId, watchTarget } from "#contracts/watchlist.ts";
import { loggedInUserOr401 } from "../auth.ts";

export async function watchlistRoutes(api: FastifyInstance, { services }: { services: Services }) {
  const { watchlist } = services;

  // Reading does not count as a visit: only the page moves "changed since your last visit".
  api.get("/account/watchlist", async (request) => watchlist.list(loggedInUserOr401(request).id));

  // 201 with the new item; following again answers 200 with the item already there.
  api.post("/account/watchlist", async (request, reply) => {
    const user = loggedInUserOr401(request);
    const { item, created } = await watchlist.follow(user.id, watchTarget.parse(request.body ?? {}));
    return reply.status(created ? 201 : 200).send({ item });
  });

  api.delete<{ Params: { id: string } }>("/account/watchlist/:id", async (request, reply) => {
    const user = loggedInUserOr401(request);
    const id = watchItemId(request.params.id);
    if (id === undefined) throw notFound(WATCHLIST_MESSAGES.itemNotFound);
    await watchlist.unfollow(user.id, id);
    return reply.status(204).send();
  });
}
