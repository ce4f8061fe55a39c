// The console's offers for admins (docs/api.md): list, create, edit every field,
// retire and restore. The rules live in core/offers/editor.ts.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Services } from "#core/services.ts";
import { adminOfferFilter } from "#contracts/offers.ts";
import { loggedInUserOr401 } from "../auth.ts";

const admin = { role: "admin" } as const;

type IdParams = { Params: { id: string } };

export async function adminOfferRoutes(api: FastifyInstance, options: { services: Services }) {
  const { editor } = options.services.offers;
  const actor = (request: FastifyRequest) => ({
    siteId: request.site.id,
    userId: loggedInUserOr401(request).id,
  });

  api.get("/offers", { config: admin }, async (request) => editor.list(adminOfferFilter.parse(request.query)));
  api.post("/offers", { config: admin }, async (request, reply) => {
    reply.status(201);
    return editor.create(actor(request), request.body);
  });
  api.get<IdParams>("/offers/:id", { config: admin }, async (request) => editor.get(request.params.id));
  api.put<IdParams>("/offers/:id", { config: admin }, async (request) =>
    editor.update(actor(request), request.params.id, request.body),
  );
  api.post<IdParams>("/offers/:id/retire", { config: admin }, async (request) =>
    editor.retire(actor(request), request.params.id, request.body),
  );
  api.post<IdParams>("/offers/:id/restore", { config: admin }, async (request) =>
    editor.restore(actor(request), request.params.id, request.body),
  );
}
