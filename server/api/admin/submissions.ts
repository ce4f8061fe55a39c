// The network submissions queue for moderators (docs/api.md): the list, the
// uploaded logo, and the three decisions. The admin scope checked the role
// before these run; the rules live in core/submissions.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Services } from "#core/services.ts";
import type { Moderator } from "#core/submissions/submissions.ts";
import { submissionFilter } from "#contracts/submissions.ts";
import { loggedInUserOr401 } from "../auth.ts";

type IdParams = { id: string };
const moderator = { role: "moderator" } as const;

const by = (request: FastifyRequest): Moderator => ({
  siteId: request.site.id,
  userId: loggedInUserOr401(request).id,
});

export async function submissionRoutes(admin: FastifyInstance, options: { services: Services }) {
  const { submissions } = options.services;

  admin.get("/submissions", { config: moderator }, async (request) =>
    submissions.list(request.site.id, submissionFilter.parse(request.query)),
  );

  admin.get<{ Params: IdParams }>("/submissions/:id/logo", { config: moderator }, async (request, reply) => {
    const logo = await submissions.uploadedLogo(request.site.id, request.params.id);
    // Not public yet: kept by the moderator's browser only; the file under this id never changes.
    return reply.type(logo.contentType).header("cache-control", "private, max-age=86400").send(logo.bytes);
  });

  admin.post<{ Params: IdParams }>("/submissions/:id/approve", { config: moderator }, async (request) =>
    submissions.approve(by(request), request.params.id),
  );

  admin.post<{ Params: IdParams }>("/submissions/:id/reject", { config: moderator }, async (request) =>
    submissions.reject(by(request), request.params.id, request.body),
  );

  admin.post<{ Params: IdParams }>("/submissions/:id/duplicate", { config: moderator }, async (request) =>
    submissions.markDuplicate(by(request), request.params.id, request.body),
  );
}
