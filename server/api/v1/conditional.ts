// Conditional reads: every successful v1 answer carries a weak ETag of its JSON, and a
// request whose If-None-Match holds it is answered 304 without a body. Done where the
// body is serialised, before compression (which would turn the body into a stream).
import crypto from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";

const weakEtag = (body: string) => `W/"${crypto.createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;

/** If-None-Match lists validators; the weak comparison (RFC 9110 §13.1.2) ignores the W/ prefix. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = etag.replace(/^W\//, "");
  return ifNoneMatch.split(",").some((v) => v.trim() === "*" || v.trim().replace(/^W\//, "") === bare);
}

/** Sends `body` as JSON with its ETag, or 304 when the client already holds it. */
export function sendRead(request: FastifyRequest, reply: FastifyReply, body: unknown): FastifyReply {
  const json = JSON.stringify(body);
  const etag = weakEtag(json);
  reply.header("etag", etag);
  if (matches(request.headers["if-none-match"], etag)) return reply.code(304).send();
  return reply.type("application/json; charset=utf-8").send(json);
}
