// Review moderation for moderators: the reported, held and hidden queues, and
// hide (with a reason) or restore. The admin scope checked the role before these run.
import type { FastifyInstance } from "fastify";
import type { Services } from "#core/services.ts";
import { loggedInUserOr401 } from "../auth.ts";

type IdParams = { id: string };
const moderator = { role: "moderator" } as const;

export async function reviewModerationRoutes(admin: FastifyInstance, options: { services: Services }) {
  const { reviewModeration } = options.services;
  admin.get("/reviews", { config: moderator }, async (request) => reviewModeration.list(request.query));

  admin.post<{ Params: IdParams }>("/reviews/:id/hide", { config: moderator }, async (request) =>
    reviewModeration.hide({
      reviewId: request.params.id,
      actorId: loggedInUserOr401(request).id,
      siteId: request.site.id,
      input: request.body,
    }),
  );

  admin.post<{ Params: IdParams }>("/reviews/:id/dismiss", { config: moderator }, async (request) =>
    reviewModeration.dismissReports({
      reviewId: request.params.id,
      actorId: loggedInUserOr401(request).id,
      siteId: request.site.id,
    }),
  );

  admin.post<{ Params: IdParams }>("/reviews/:id/restore", { config: moderator }, async (request) =>
    reviewModeration.restore({
      reviewId: request.params.id,
      actorId: loggedInUserOr401(request).id,
      siteId: request.site.id,
    }),
  );
}
