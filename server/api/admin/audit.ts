// GET /api/admin/audit: the console's audit log, newest first (admins only).
import type { FastifyInstance } from "fastify";
import type { Services } from "#core/services.ts";
import { auditFilter } from "#contracts/admin.ts";

export async function auditRoutes(admin: FastifyInstance, options: { services: Services }) {
  admin.get("/audit", async (request) =>
    options.services.audit.list(request.site.id, auditFilter.parse(request.query)),
  );
}
