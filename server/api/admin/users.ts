// Console accounts and their roles (admins only, docs/api.md): find accounts by
// email or name, and grant or revoke roles. The rules live in core/auth/roles.ts.
import type { FastifyInstance } from "fastify";
import type { Services } from "#core/services.ts";
import { userFilter } from "#core/auth/roles.ts";
import { loggedInUserOr401 } from "../auth.ts";

const admin = { role: "admin" } as const;

export async function userRoutes(scope: FastifyInstance, options: { services: Services }) {
  const { roles } = options.services;
  scope.get("/users", { config: admin }, async (request) => roles.list(userFilter.parse(request.query)));
  scope.put<{ Params: { id: string } }>("/users/:id/roles", { config: admin }, async (request) =>
    roles.setRoles({ siteId: request.site.id, userId: loggedInUserOr401(request).id }, request.params.id, request.body),
  );
}
