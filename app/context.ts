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
  /** The logged-in user (session cookie), or null; null too in a shared render. */
  user: SessionUser | null;
  /**
   * A signed-in visitor's page rendered as the copy every signed-in visitor shares
   * (docs/decisions/0029): no user, so nothing personal can enter it. A page that
   * cannot do without its user answers `personalRender()`, and is rendered again with it.
   */
  shared: boolean;
};

/** Whether someone is signed in, in a personal render or the shared one. */
export const signedIn = (c: RequestContext) => c.shared || c.user !== null;

/** Whom a page's stars are for: the user, any signed-in visitor (shared render), or nobody. */
export const watchViewer = (c: RequestContext) => (c.shared ? ("shared" as const) : c.user);

export const requestContext = createContext<RequestContext>();
