// The console's offer sources for admins (docs/api.md): list, add, read, edit.
// The rules live in core/supply/sources.ts; no answer carries a credential.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Services } from "#core/services.ts";
import { loggedInUserOr401 } from "../auth.ts";

const admin = { role: "admin" } as const;

type IdParams = { Params: { id: string } };

export async function offerSourceRoutes(api: FastifyInstance, options: { services: Services }) {
  const { offerSources } = options.services;
  const actor = (request: FastifyRequest) => ({ siteId: request.site.id, userId: loggedInUserOr401(request).id });

  api.get("/sources", { config: admin }, async (request) => offerSources.list(request.query));
  api.post("/sources", { config: admin }, async (request, reply) => {
    const source = await offerSources.add(actor(request), request.body);
    reply.status(201);
    return source;
  });
  api.get<IdParams>("/sources/:id", { config: admin }, async (request) => offerSources.get(request.params.id));
  api.put<IdParams>("/sources/:id", { config: admin }, async (request) =>
    offerSources.update(actor(request), request.params.id, request.body),
  );
  // "Sync now": queued (202), or started here when the queue does not run in this process.
  api.post<IdParams>("/sources/:id/sync", { config: admin }, async (request, reply) => {
    const source = await offerSources.get(request.params.id);
    const requested = await options.services.offerScheduler.syncNow(source.id);
    reply.status(202);
    return requested;
  });
}
