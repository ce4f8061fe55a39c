// Everything under /api: JSON in, JSON out, a resolved site on every request,
// and `{ message }` with 404 for a path no route owns.
import type { FastifyInstance, FastifyReply } from "fastify";
import type { Services } from "#core/services.ts";
import { registerSiteResolution } from "./site.ts";
import { networkRoutes } from "./networks.ts";
import { trafficSourceRoutes } from "./traffic-sources.ts";
import { offerRoutes } from "./offers.ts";
import { exportRoutes } from "./export.ts";
import { authRoutes, registerSessionUser } from "./auth.ts";
import { userRoutes } from "./users.ts";
import { leadRoutes } from "./leads.ts";
import { linkRoutes } from "./links.ts";
import { adminRoutes } from "./admin/index.ts";
import { watchlistRoutes } from "./account/watchlist.ts";
import { personalRoutes } from "./account/personal.ts";
import { apiKeyRoutes } from "./account/api-keys.ts";
import { savedSearchRoutes } from "./account/saved-searches.ts";
import { v1Routes, type V1Options } from "./v1/index.ts";

export type ApiOptions = { services: Services; v1: Omit<V1Options, "services"> };

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
  await api.register(exportRoutes, { services: options.services });
  await api.register(leadRoutes, { services: options.services });
  await api.register(linkRoutes, { services: options.services });
  await api.register(adminRoutes, { prefix: "/admin", services: options.services });
  await api.register(watchlistRoutes, { services: options.services });
  await api.register(personalRoutes, { services: options.services });
  await api.register(apiKeyRoutes, { services: options.services });
  await api.register(savedSearchRoutes, { services: options.services });
  await api.register(v1Routes, { prefix: "/v1", services: options.services, ...options.v1 });

  const unknownPath = async (_request: unknown, reply: FastifyReply) =>
    reply.status(404).send({ message: "Not found" });
  api.all("/", unknownPath);
  api.all("/*", unknownPath);
}
