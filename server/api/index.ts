// Everything under /api: JSON in, JSON out, a resolved site on every request,
// and `{ message }` with 404 for a path no route owns.
import type { FastifyInstance, FastifyReply } from "fastify";
import type { Services } from "#core/services.ts";
import { registerSiteResolution } from "./site.ts";
import { networkRoutes } from "./networks.ts";
import { trafficSourceRoutes } from "./traffic-sources.ts";
import { offerRoutes } from "./offers.ts";
import { authRoutes, registerSessionUser } from "./auth.ts";
import { userRoutes } from "./users.ts";
import { leadRoutes } from "./leads.ts";
import { linkRoutes } from "./links.ts";
import { adminRoutes } from "./admin/index.ts";

export type ApiOptions = { services: Services };

export async function apiRoutes(api: FastifyInstance, options: ApiOptions) {
  registerSiteResolution(api, options.services);
  registerSessionUser(api, options.services); // request.user for every route below
  api.addHook("onSend", async (_request, reply, payload) => {
    // API answers are per-user or fast-changing unless a route says otherwise.
    if (!reply.hasHeader("cache-control")) reply.header("cache-control", "no-store");
    return payload;
  });

  await api.register(authRoutes, { services: options.services });
  await api.register(userRoutes);
  api.get("/ping", async (request) => ({ site: request.site.id }));

  await api.register(networkRoutes, { services: options.services });
  await api.register(trafficSourceRoutes, { services: options.services });
  await api.register(offerRoutes, { services: options.services });
  await api.register(leadRoutes, { services: options.services });
  await api.register(linkRoutes, { services: options.services });
  await api.register(adminRoutes, { prefix: "/admin", services: options.services });

  const unknownPath = async (_request: unknown, reply: FastifyReply) =>
    reply.status(404).send({ message: "Not found" });
  api.all("/", unknownPath);
  api.all("/*", unknownPath);
}
