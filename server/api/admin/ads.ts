// House ads in the console for admins (docs/api.md): list, create, edit, retire
// and the CTR report. The rules live in core/ads.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Services } from "#core/services.ts";
import { loggedInUserOr401 } from "../auth.ts";

const admin = { role: "admin" } as const;
type IdRoute = { Params: { id: string } };

export async function adRoutes(api: FastifyInstance, options: { services: Services }) {
  const { ads } = options.services;
  const editor = (request: FastifyRequest) => ({ siteId: request.site.id, userId: loggedInUserOr401(request).id });

  api.get("/ads", { config: admin }, async (request) => ads.console.list(request.query));
  api.post("/ads", { config: admin }, async (request, reply) =>
    reply.status(201).send(await ads.console.create(editor(request), request.body)),
  );
  api.get("/ads/report", { config: admin }, async (request) => ads.report(request.query));
  api.get<IdRoute>("/ads/:id", { config: admin }, async (request) => ads.console.get(request.params.id));
  api.put<IdRoute>("/ads/:id", { config: admin }, async (request) =>
    ads.console.update(editor(request), request.params.id, request.body),
  );
  api.post<IdRoute>("/ads/:id/retire", { config: admin }, async (request) =>
    ads.console.retire(editor(request), request.params.id, request.body),
  );
}
