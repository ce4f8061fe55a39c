// Lead forms (docs/product.md §7): POST /api/add-your-network (multipart, with a logo),
// POST /api/advertisement-request/ and POST /api/support/contact-us/ (JSON).
// Thin adapters: the rules live in core/leads.
import type { FastifyError, FastifyInstance, FastifyRequest } from "fastify";
import type { Services } from "#core/services.ts";
import { badRequest, HttpError } from "#core/errors.ts";
import type { UploadedFile } from "#core/leads/logo.ts";
import { ANTIBOT_FIELD } from "#contracts/antibot.ts";
import { LOGO_RULES, MULTI_VALUE_FIELDS } from "#contracts/leads.ts";
import { assertSafeText } from "#server/plugins/input-hygiene.ts";
import { registerMultipart } from "#server/plugins/external/multipart.ts";

// The logo's limit plus one byte, so "too big" is seen (truncated) instead of cut silently.
const FILE_LIMIT = LOGO_RULES.maxKb * 1024 + 1;

type Body = Record<string, unknown> | undefined;

/**
 * A multipart body that cannot be read: the same words the page form posts answer (server/plugins/react-router.ts).
 * The parser's own words stay in the log, and the client's bytes nowhere.
 */
export const MALFORMED_MULTIPART = "The form could not be read";

/** The boundary parameter of a multipart Content-Type; "" when missing or empty (RFC 2046 wants 1 to 70 characters). */
const boundaryOf = (contentType: string | undefined) =>
  /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]*))/i
    .exec(contentType ?? "")
    ?.slice(1)
    .find((b) => b !== undefined) ?? "";

/**
 * What to answer when reading the parts failed. @fastify/multipart's limit and prototype errors are
 * Fastify 4xx errors and go on as they are; busboy's (unexpected end of form, malformed part header,
 * boundary not found…) are plain Errors, which the error handler would answer with a 500.
 */
function unreadable(err: unknown, request: FastifyRequest): Error {
  if (err instanceof HttpError) return err;
  const status = (err as Partial<FastifyError>)?.statusCode;
  if (typeof status === "number" && status >= 400 && status < 500) return err as FastifyError;
  request.log.info({ reason: err instanceof Error ? err.message : String(err) }, "unreadable multipart body");
  return badRequest(MALFORMED_MULTIPART);
}

const tokenOf = (body: Record<string, unknown>) => {
  const t = body[ANTIBOT_FIELD];
  return typeof t === "string" ? t : undefined;
};

export async function leadRoutes(api: FastifyInstance, { services }: { services: Services }) {
  const { leads, sites } = services;
  await registerMultipart(api, { fileBytes: FILE_LIMIT });

  api.post("/add-your-network", async (request: FastifyRequest, reply) => {
    if (!request.isMultipart()) throw badRequest("Expected a multipart/form-data request");
    if (!boundaryOf(request.headers["content-type"])) throw badRequest(MALFORMED_MULTIPART);
    const fields: Record<string, string | string[]> = {};
    let logo: UploadedFile | undefined;
    try {
      for await (const part of request.parts()) {
        if (part.type === "file") {
          const bytes = await part.toBuffer();
          // An empty file input arrives as a nameless, empty part: no logo given.
          if (part.fieldname === "logo" && (part.filename || bytes.length)) {
            logo = { filename: part.filename ?? "", bytes, truncated: part.file.truncated };
          }
        } else if (typeof part.value === "string") {
          const prev = fields[part.fieldname];
          fields[part.fieldname] = MULTI_VALUE_FIELDS.has(part.fieldname)
            ? [...(Array.isArray(prev) ? prev : prev === undefined ? [] : [prev]), part.value]
            : part.value;
        }
      }
    } catch (err) {
      throw unreadable(err, request);
    }
    // Fastify never parsed this body, so the door's NUL / lone-surrogate check (server/plugins/input-hygiene.ts) happens here.
    assertSafeText(fields);
    // A multipart body is read here, after the site hook ran: honour its `site` field too.
    const site =
      typeof fields.site === "string" && fields.site.trim() ? await sites.resolve(fields.site) : request.site;
    const receipt = await leads.submitNetwork(fields, logo, {
      siteId: site.id,
      ip: request.ip,
      token: tokenOf(fields),
    });
    return reply.status(201).send(receipt);
  });

  api.post("/advertisement-request", async (request, reply) => {
    const body = (request.body as Body) ?? {};
    const receipt = await leads.requestAdvertising(body, {
      siteId: request.site.id,
      ip: request.ip,
      token: tokenOf(body),
    });
    return reply.status(201).send(receipt);
  });

  api.post("/support/contact-us", async (request, reply) => {
    const body = (request.body as Body) ?? {};
    const receipt = await leads.contactSupport(body, { siteId: request.site.id, ip: request.ip, token: tokenOf(body) });
    return reply.status(201).send(receipt);
  });
}
