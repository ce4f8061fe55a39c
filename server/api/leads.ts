// Lead forms (spec §7): POST /api/add-your-network (multipart, with a logo),
// POST /api/advertisement-request/ and POST /api/support/contact-us/ (JSON).
// Thin adapters: the rules live in core/leads.
import multipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Services } from "#core/services.ts";
import { badRequest } from "#core/errors.ts";
import type { UploadedFile } from "#core/leads/logo.ts";
import { ANTIBOT_FIELD, LOGO_RULES, MULTI_VALUE_FIELDS } from "#contracts/leads.ts";

// The logo's limit plus one byte, so "too big" is seen (truncated) instead of cut silently.
const FILE_LIMIT = LOGO_RULES.maxKb * 1024 + 1;

type Body = Record<string, unknown> | undefined;

const tokenOf = (body: Record<string, unknown>) => {
  const t = body[ANTIBOT_FIELD];
  return typeof t === "string" ? t : undefined;
};

export async function leadRoutes(api: FastifyInstance, { services }: { services: Services }) {
  const { leads, sites } = services;
  await api.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: FILE_LIMIT, files: 1, fields: 60, fieldSize: 20 * 1024, parts: 62, headerPairs: 100 },
  });

  api.post("/add-your-network", async (request: FastifyRequest, reply) => {
    if (!request.isMultipart()) throw badRequest("Expected a multipart/form-data request");
    const fields: Record<string, string | string[]> = {};
    let logo: UploadedFile | undefined;
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
    // A multipart body is read here, after the site hook ran: honour its `site` field too.
    const site = typeof fields.site === "string" && fields.site.trim() ? await sites.resolve(fields.site) : request.site;
    const receipt = await leads.submitNetwork(fields, logo, { siteId: site.id, ip: request.ip, token: tokenOf(fields) });
    return reply.status(201).send(receipt);
  });

  api.post("/advertisement-request", async (request, reply) => {
    const body = (request.body as Body) ?? {};
    const receipt = await leads.requestAdvertising(body, { siteId: request.site.id, ip: request.ip, token: tokenOf(body) });
    return reply.status(201).send(receipt);
  });

  api.post("/support/contact-us", async (request, reply) => {
    const body = (request.body as Body) ?? {};
    const receipt = await leads.contactSupport(body, { siteId: request.site.id, ip: request.ip, token: tokenOf(body) });
    return reply.status(201).send(receipt);
  });
}
