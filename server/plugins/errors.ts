// The one error handler: every failure answers `{ message }` with its status.
// Unexpected errors are logged with the request id and answered without details;
// no answer repeats what the client sent (paths, header values, bodies).
import http from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from "fastify";
import { refusalOf } from "#core/errors.ts";

const SERVER_ERROR_MESSAGE = "Sorry! The application has encountered a server error";

// Fastify's own 4xx, in words that never quote the request (its messages echo content types and paths).
const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "Unsupported content type",
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: "Content-Length does not match the body",
  FST_ERR_CTP_BODY_TOO_LARGE: "Request body is too large",
  FST_ERR_CTP_EMPTY_JSON_BODY: "Body cannot be empty when content-type is set to 'application/json'",
  FST_ERR_CTP_INVALID_JSON_BODY: "Body is not valid JSON",
  FST_ERR_BAD_URL: "Malformed URL",
  FST_ERR_ASYNC_CONSTRAINT: "Bad request",
};

export function statusAndMessage(err: unknown): { status: number; message: string; headers?: Record<string, string> } {
  const refusal = refusalOf(err);
  if (refusal) return refusal;
  const fe = err as Partial<FastifyError>;
  if (typeof fe.statusCode === "number" && fe.statusCode >= 400 && fe.statusCode < 500) {
    // Rate limits (429) speak for themselves; other Fastify errors get fixed words.
    const known = fe.code ? FASTIFY_MESSAGES[fe.code] : undefined;
    const message =
      known ?? (fe.statusCode === 429 && fe.message ? fe.message : (http.STATUS_CODES[fe.statusCode] ?? "Bad request"));
    return { status: fe.statusCode, message };
  }
  return { status: 500, message: SERVER_ERROR_MESSAGE };
}

export function registerErrorHandling(app: FastifyInstance) {
  // Methods no route takes (PROPFIND, TRACE, …): Fastify's own 404 would repeat the method and path.
  app.setNotFoundHandler((_request, reply) => reply.status(404).send({ message: "Not found" }));
  app.setErrorHandler((err, request, reply) => {
    const { status, message, headers } = statusAndMessage(err);
    // A 503 (database away, overload) is a state, not a bug: one line, no stack, however many there are.
    if (status === 503) request.log.warn({ status, message }, "request shed");
    else if (status >= 500) request.log.error({ err }, "request failed");
    else request.log.info({ status, message }, "request rejected");
    if (headers) reply.headers(headers);
    return reply.status(status).send({ message });
  });
}

/** Errors Fastify meets before a route is found (a path that is not valid percent-encoding). */
export const frameworkErrors = ((err: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
  const { status, message } = statusAndMessage(err);
  reply.status(status).send({ message });
}) as NonNullable<FastifyServerOptions["frameworkErrors"]>;

/**
 * Errors Node's HTTP parser meets before Fastify sees a request (headers too large,
 * malformed request line): answered as `{ message }` on the raw socket, then closed.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket) {
  if (err.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = err.code === "HPE_HEADER_OVERFLOW" ? 431 : err.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
  const message =
    status === 431 ? "Request headers are too large" : status === 408 ? "Request timed out" : "Malformed request";
  const body = JSON.stringify({ message });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
