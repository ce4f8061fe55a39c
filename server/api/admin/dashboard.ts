// GET /api/admin/dashboard?days=N (admins only, docs/api.md): queue counts,
// searches, searches without results and join clicks (core/dashboard).
import type { FastifyInstance } from "fastify";
import type { Services } from "#core/services.ts";
import { dashboardQuery } from "#core/dashboard/dashboard.ts";

export async function dashboardRoutes(scope: FastifyInstance, options: { services: Services }) {
  scope.get("/dashboard", { config: { role: "admin" } }, async (request) =>
    options.services.dashboard.read(request.site.id, dashboardQuery.parse(request.query).days),
  );
}
