// Third-party tags of the request's site for admins (docs/api.md): the ad server's
// slots, the analytics id and the social pixel. The rules live in core/sites/tags.ts.
import type { FastifyInstance } from "fastify";
import type { Services } from "#core/services.ts";
import { loggedInUserOr401 } from "../auth.ts";

const admin = { role: "admin" } as const;

export async function tagRoutes(scope: FastifyInstance, options: { services: Services }) {
  const { siteTags } = options.services;
  scope.get("/tags", { config: admin }, async (request) => siteTags.get(request.site.id));
  scope.put("/tags", { config: admin }, async (request) =>
    siteTags.save({ siteId: request.site.id, userId: loggedInUserOr401(request).id }, request.body),
  );
}
