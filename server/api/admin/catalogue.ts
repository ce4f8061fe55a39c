// The console's catalogue for admins (docs/api.md): networks and traffic
// sources (create, edit, retire, restore) and verticals (rename, merge). The
// rules live in core/networks/editor.ts, core/traffic-sources/editor.ts and
// core/reference/verticals.ts.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Services } from "#core/services.ts";
import { networkFilter, trafficSourceFilter, verticalFilter } from "#contracts/catalogue.ts";
import { loggedInUserOr401 } from "../auth.ts";

const admin = { role: "admin" } as const;
type ById = { Params: { id: string } };

const editorOf = (request: FastifyRequest) => ({ siteId: request.site.id, userId: loggedInUserOr401(request).id });

export async function catalogueRoutes(api: FastifyInstance, options: { services: Services }) {
  const { networkEditor, trafficSourceEditor, verticalEditor } = options.services;

  api.get("/networks", { config: admin }, async (request) => networkEditor.list(networkFilter.parse(request.query)));
  api.post("/networks", { config: admin }, async (request, reply) =>
    reply.status(201).send(await networkEditor.create(editorOf(request), request.body)),
  );
  api.get<ById>("/networks/:id", { config: admin }, async (request) => networkEditor.get(request.params.id));
  api.put<ById>("/networks/:id", { config: admin }, async (request) =>
    networkEditor.update(editorOf(request), request.params.id, request.body),
  );
  api.post<ById>("/networks/:id/retire", { config: admin }, async (request) =>
    networkEditor.retire(editorOf(request), request.params.id, request.body),
  );
  api.post<ById>("/networks/:id/restore", { config: admin }, async (request) =>
    networkEditor.restore(editorOf(request), request.params.id, request.body),
  );

  api.get("/traffic-sources", { config: admin }, async (request) =>
    trafficSourceEditor.list(trafficSourceFilter.parse(request.query)),
  );
  api.post("/traffic-sources", { config: admin }, async (request, reply) =>
    reply.status(201).send(await trafficSourceEditor.create(editorOf(request), request.body)),
  );
  api.get<ById>("/traffic-sources/:id", { config: admin }, async (request) =>
    trafficSourceEditor.get(request.params.id),
  );
  api.put<ById>("/traffic-sources/:id", { config: admin }, async (request) =>
    trafficSourceEditor.update(editorOf(request), request.params.id, request.body),
  );
  api.post<ById>("/traffic-sources/:id/retire", { config: admin }, async (request) =>
    trafficSourceEditor.retire(editorOf(request), request.params.id, request.body),
  );
  api.post<ById>("/traffic-sources/:id/restore", { config: admin }, async (request) =>
    trafficSourceEditor.restore(editorOf(request), request.params.id, request.body),
  );

  api.get("/verticals", { config: admin }, async (request) => verticalEditor.list(verticalFilter.parse(request.query)));
  api.put<ById>("/verticals/:id", { config: admin }, async (request) =>
    verticalEditor.rename(editorOf(request), request.params.id, request.body),
  );
  api.post<ById>("/verticals/:id/merge", { config: admin }, async (request) =>
    verticalEditor.merge(editorOf(request), request.params.id, request.body),
  );
}
