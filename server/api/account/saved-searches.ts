// The signed-in user's saved searches and alert settings (issue #14). Thin adapters
// over services.savedSearches; every route needs a session (401 without), and an
// id of another user's search answers 404 like an unknown one.
import type { FastifyInstance } from "fastify";
import type { Services } from "#core/services.ts";
import { loggedInUserOr401 } from "../auth.ts";

type ById = { Params: { id: string } };

export async function savedSearchRoutes(api: FastifyInstance, { services }: { services: Services }) {
  const { savedSearches } = services;

  api.get("/account/saved-searches", async (request) => ({
    savedSearches: await savedSearches.list(loggedInUserOr401(request).id),
  }));

  api.post("/account/saved-searches", async (request, reply) => {
    const user = loggedInUserOr401(request);
    return reply.status(201).send(await savedSearches.create(user.id, request.body));
  });

  api.get<ById>("/account/saved-searches/:id", async (request) =>
    savedSearches.get(loggedInUserOr401(request).id, request.params.id),
  );

  // Rename and/or change the alert's frequency.
  api.patch<ById>("/account/saved-searches/:id", async (request) =>
    savedSearches.update(loggedInUserOr401(request).id, request.params.id, request.body),
  );

  api.delete<ById>("/account/saved-searches/:id", async (request, reply) => {
    await savedSearches.remove(loggedInUserOr401(request).id, request.params.id);
    return reply.status(204).send();
  });

  // The watchlist's alert: { alertFrequency }.
  api.get("/account/watchlist-alert", async (request) => savedSearches.watchlistAlert(loggedInUserOr401(request).id));
  api.put("/account/watchlist-alert", async (request) =>
    savedSearches.setWatchlistAlert(loggedInUserOr401(request).id, request.body),
  );
}
