// The one error handler: every API failure answers `{ message }` with its status.
// Unexpected errors are logged with the request id and answered without details.
import type { FastifyError, FastifyInstance } from "fastify";
import { ZodError } from "zod";
import { HttpError } from "#core/errors.ts";
import { UnknownSiteError } from "#core/sites/sites.ts";
import { firstIssueMessage } from "#contracts/validation.ts";

export function statusAndMessage(err: unknown): { status: number; message: string; headers?: Record<string, string> } {
  if (err instanceof HttpError) return { status: err.status, message: err.message, headers: err.headers };
  if (err instanceof ZodError) return { status: 400, message: firstIssueMessage(err) };
  if (err instanceof UnknownSiteError) return { status: 400, message: err.message };
  const fe = err as Partial<FastifyError>;
  if (typeof fe.statusCode === "number" && fe.statusCode >= 400 && fe.statusCode < 500) {
    // Fastify's own 4xx: malformed JSON, body too large, unsupported media type, rate limit.
    return { status: fe.statusCode, message: fe.message ?? "Bad request" };
  }
  return { status: 500, message: "Sorry! The application has encountered a server error" };
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err, request, reply) => {
    const { status, message, headers } = statusAndMessage(err);
    if (status >= 500) request.log.error({ err }, "request failed");
    else request.log.info({ status, message }, "request rejected");
    if (headers) reply.headers(headers);
    return reply.status(status).send({ message });
  });
}
