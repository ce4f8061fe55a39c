// Accounts API (docs/product.md §7): register, login, logout, forgot and reset password,
// plus the hook that puts the session user on every /api request. Thin: the
// rules live in core/auth; this file maps HTTP (cookies, headers) onto them.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { CLEARED_PERSONAL_VERSION, SESSION_ENDED_CLEAR_SITE_DATA } from "#contracts/personal.ts";
import {
  forgotPasswordSchema,
  loginSchema,
  registerSchema,
  resetPasswordSchema,
  resetTokenSchema,
  type SessionUser,
} from "#contracts/auth.ts";
import { HttpError } from "#core/errors.ts";
import { INVALID_RESET_LINK, NOT_LOGGED_IN } from "#core/auth/auth.ts";
import { AUTH_COOKIE, sessionCookie, stripBearer } from "#core/auth/sessions.ts";
import type { Services } from "#core/services.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route looks its session up itself, in the statement that reads its data. */
    ownSession?: boolean;
  }
  interface FastifyRequest {
    /** The logged-in user (Bearer header or session cookie), or null. */
    user: SessionUser | null;
  }
}

const FORGOT_PASSWORD_SENT = "If an account exists for this email address, we have sent a link to reset the password.";
const PASSWORD_CHANGED = "Your password has been changed. You can now log in with the new one.";

/** The session token of a request: `Authorization: Bearer …` first, then the cookie. */
export function sessionToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header === "string" && /^Bearer\s+/i.test(header)) return stripBearer(header);
  return stripBearer(request.cookies?.[AUTH_COOKIE]);
}

/** For routes that need a login: the user, or a 401. */
export function loggedInUserOr401(request: FastifyRequest): SessionUser {
  if (!request.user) throw new HttpError(401, NOT_LOGGED_IN);
  return request.user;
}

/** Sets `request.user` for every route of the scope; call before registering routes. */
export function registerSessionUser(api: FastifyInstance, services: Services) {
  api.decorateRequest("user", null);
  api.addHook("onRequest", async (request) => {
    // A route that reads the session with its own statement says so (`ownSession`); its user stays null.
    if (request.routeOptions.config.ownSession) return;
    const token = sessionToken(request);
    request.user = token ? await services.auth.userForToken(token) : null;
  });
}

const meta = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers["user-agent"] });

/**
 * Ends the session in the browser: its cookie and its personal version cleared, and its HTTP cache
 * of the site emptied, so the personal answer it kept (docs/decisions/0047) goes with the session.
 */
export function endSessionInBrowser(reply: FastifyReply, secure: boolean): FastifyReply {
  return reply
    .header("set-cookie", [sessionCookie(null, secure), CLEARED_PERSONAL_VERSION])
    .header("clear-site-data", SESSION_ENDED_CLEAR_SITE_DATA);
}

export async function authRoutes(api: FastifyInstance, options: { services: Services }) {
  const { services } = options;
  const { auth } = services;

  api.post("/auth/register", async (request, reply) => {
    const input = registerSchema.parse(request.body ?? {});
    const user = await auth.register(request.site.id, input, meta(request));
    return reply.status(201).send({ user, message: "Your account has been created. You can now log in." });
  });

  api.post("/auth/login", async (request, reply) => {
    const input = loginSchema.parse(request.body ?? {});
    const session = await auth.login(input, meta(request));
    reply.header("set-cookie", sessionCookie(session, services.secureCookies));
    return {
      token: session.token,
      user: session.user,
      expiresAt: session.expiresAt.toISOString(),
      remember: session.remember,
    };
  });

  // Always 2xx: a client logging out must end up logged out, whatever it sent.
  const logout = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      await auth.logout(sessionToken(request));
    } catch (err) {
      request.log.warn({ err }, "logout could not revoke the session");
    }
    endSessionInBrowser(reply, services.secureCookies);
    return reply.status(200).send({ message: "Logged out" });
  };
  api.post("/auth/logout", { errorHandler: (_err, request, reply) => logout(request, reply) }, logout);

  api.post("/auth/forgot-password", async (request) => {
    const input = forgotPasswordSchema.parse(request.body ?? {});
    await auth.forgotPassword(input, meta(request));
    return { message: FORGOT_PASSWORD_SENT };
  });

  api.get("/auth/reset-password", async (request) => {
    const { token } = resetTokenSchema.parse(request.query ?? {});
    const valid = await auth.resetTokenValid(token);
    return valid ? { valid } : { valid, message: INVALID_RESET_LINK };
  });

  api.post("/auth/reset-password", async (request) => {
    const input = resetPasswordSchema.parse(request.body ?? {});
    await auth.resetPassword(input, meta(request));
    return { message: PASSWORD_CHANGED };
  });
}
