// The signed-in account's API keys (issue #14, docs/api.md): list, create (the
// answer is the only time a key is sent) and revoke. The public read API under
// /api/v1 verifies them; the rules live in core/account/api-keys.ts.
import type { FastifyInstance } from "fastify";
import type { Services } from "#core/services.ts";
import { loggedInUserOr401 } from "../auth.ts";

type IdRoute = { Params: { id: string } };

export async function apiKeyRoutes(api: FastifyInstance, options: { services: Services }) {
  const { apiKeys } = options.services;

  api.get("/account/api-keys", async (request) => ({ keys: await apiKeys.list(loggedInUserOr401(request).id) }));
  api.post("/account/api-keys", async (request, reply) => {
    const user = loggedInUserOr401(request);
    return reply.status(201).send(await apiKeys.create(user.id, request.body));
  });
  api.delete<IdRoute>("/account/api-keys/:id", async (request, reply) => {
    await apiKeys.revoke(loggedInUserOr401(request).id, request.params.id);
    return reply.status(204).send();
  });
}
