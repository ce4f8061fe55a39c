// The console's inbox for moderators (docs/api.md): advertise requests and contact
// messages, their status, note and handler. The rules live in core/inbox.
import type { FastifyInstance } from "fastify";
import type { Services } from "#core/services.ts";
import { inboxFilter } from "#contracts/inbox.ts";
import { loggedInUserOr401 } from "../auth.ts";

const moderator = { role: "moderator" } as const;

export async function inboxRoutes(admin: FastifyInstance, options: { services: Services }) {
  const { inbox } = options.services;
  admin.get("/inbox", { config: moderator }, async (request) =>
    inbox.list(request.site.id, inboxFilter.parse(request.query)),
  );
  admin.post<{ Params: { kind: string; id: string } }>("/inbox/:kind/:id", { config: moderator }, async (request) =>
    inbox.update(
      { siteId: request.site.id, userId: loggedInUserOr401(request).id },
      request.params.kind,
      request.params.id,
      request.body,
    ),
  );
}
