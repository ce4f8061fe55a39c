// The queue of platform categories for admins (docs/api.md): list it, map a
// category to a vertical or unmap it, or make a new vertical from its name and
// map to it. The rules live in core/supply/categories.ts.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Services } from "#core/services.ts";
import { loggedInUserOr401 } from "../auth.ts";

const admin = { role: "admin" } as const;

type IdParams = { Params: { id: string } };

export async function platformCategoryRoutes(api: FastifyInstance, options: { services: Services }) {
  const { platformCategories } = options.services;
  const actor = (request: FastifyRequest) => ({ siteId: request.site.id, userId: loggedInUserOr401(request).id });

  api.get("/platform-categories", { config: admin }, async (request) => platformCategories.list(request.query));
  api.put<IdParams>("/platform-categories/:id", { config: admin }, async (request) =>
    platformCategories.map(actor(request), request.params.id, request.body),
  );
  api.post<IdParams>("/platform-categories/:id/vertical", { config: admin }, async (request, reply) => {
    const created = await platformCategories.createVertical(actor(request), request.params.id, request.body);
    reply.status(201);
    return created;
  });
}
