// What the server hands every loader and action: the core services and the
// request's site, user and CSP nonce. The key is exported from entry.server so
// the Fastify side sets the very same key the routes read.
import { createContext } from "react-router";
import type { Services } from "#core/services.ts";
import type { Site } from "#contracts/site.ts";
import type { SessionUser } from "#contracts/auth.ts";

export type RequestContext = {
  services: Services;
  site: Site;
  nonce: string;
  requestId: string;
  clientIp: string;
  /** The logged-in user (session cookie), or null. */
  user: SessionUser | null;
};

export const requestContext = createContext<RequestContext>();
