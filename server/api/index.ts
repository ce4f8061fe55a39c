// Everything under /api: JSON in, JSON out, a resolved site on every request,
// and `{ message }` with 404 for a path no route owns.
import type { FastifyInstance } from "fastify";
import type { Services } from "#core/services.ts";
import { registerSiteResolution } from "./site.ts";

export type ApiOptions = { services: Services };

export async function apiRoutes(api: FastifyInstance, options: ApiOptions) {
  registerSiteResolution(api, options.services);
  api.addHook("onSend", async (_request, reply, payload) => {
    // API answers are per-user or fast-changing unless a route says otherwise.
    if (!reply.hasHeader("cache-control")) reply.header("cache-control", "no-store");
    return payload;
  });

  api.get("/ping", async (request) => ({ site: request.site.id }));

  api.all("/*", async (_request, reply) => reply.status(404).send({ message: "Not found" }));
}
