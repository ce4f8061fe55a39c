// The operator console's API under /api/admin. Every route names the role it
// needs (`config.role`, admin when it says none); the check runs on the server
// before any handler: 401 without a session, 403 without the role.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Services } from "#core/services.ts";
import { HttpError } from "#core/errors.ts";
import { FORBIDDEN, hasRole, type Role } from "#contracts/roles.ts";
import type { SessionUser } from "#contracts/auth.ts";
import { loggedInUserOr401 } from "../auth.ts";
import { auditRoutes } from "./audit.ts";
import { submissionRoutes } from "./submissions.ts";
import { reviewModerationRoutes } from "./reviews.ts";
import { inboxRoutes } from "./inbox.ts";
import { adminOfferRoutes } from "./offers.ts";
import { adRoutes } from "./ads.ts";
import { catalogueRoutes } from "./catalogue.ts";
import { userRoutes } from "./users.ts";
import { dashboardRoutes } from "./dashboard.ts";
import { tagRoutes } from "./tags.ts";
import { offerSourceRoutes } from "./sources.ts";
import { platformCategoryRoutes } from "./platform-categories.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The role an /api/admin route needs (default admin). */
    role?: Role;
  }
}

/** The signed-in user holding the route's role; 401 or 403 otherwise. */
export function staffUser(request: FastifyRequest): SessionUser {
  const user = loggedInUserOr401(request);
  if (!hasRole(user, request.routeOptions.config.role ?? "admin")) throw new HttpError(403, FORBIDDEN);
  return user;
}

export async function adminRoutes(admin: FastifyInstance, options: { services: Services }) {
  admin.addHook("preHandler", async (request) => {
    staffUser(request);
  });
  await admin.register(auditRoutes, { services: options.services });
  await admin.register(submissionRoutes, { services: options.services });
  await admin.register(reviewModerationRoutes, { services: options.services });
  await admin.register(inboxRoutes, { services: options.services });
  await admin.register(adminOfferRoutes, { services: options.services });
  await admin.register(adRoutes, { services: options.services });
  await admin.register(catalogueRoutes, { services: options.services });
  await admin.register(userRoutes, { services: options.services });
  await admin.register(dashboardRoutes, { services: options.services });
  await admin.register(tagRoutes, { services: options.services });
  await admin.register(offerSourceRoutes, { services: options.services });
  await admin.register(platformCategoryRoutes, { services: options.services });
}
