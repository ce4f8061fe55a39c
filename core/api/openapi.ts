// The OpenAPI 3.1 document of the public API (GET /api/v1/openapi.json), generated
// from the zod contracts the routes parse their answers through (contracts/v1.ts),
// never written by hand (docs/decisions/0021-openapi-from-zod-contracts.md).
import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiResponsesObject } from "zod-openapi";
import {
  rateLimitHeaders,
  v1Error,
  v1IdParams,
  v1ListQuery,
  v1NetworkAnswer,
  v1NetworkList,
  v1OfferAnswer,
  v1OfferList,
  v1OfferSearchQuery,
  v1TrafficSourceList,
  v1VerticalList,
  v1VerticalQuery,
} from "#contracts/v1.ts";

/** Where clients get a key, and how they send it. */
const API_KEYS_PAGE = "/account/api-keys";

const etag = z.string().meta({ description: "Weak validator of the body; send it back as If-None-Match." });
const link = z.string().meta({ description: 'The next page: `<address>; rel="next"` (absent on the last page).' });

const refusal = (description: string, headers?: z.ZodObject) => ({
  description,
  content: { "application/json": { schema: v1Error } },
  ...(headers ? { headers } : {}),
});

/** What every keyed GET may answer besides its 200. */
function responses(
  ok: z.ZodType,
  description: string,
  paged: boolean,
  withNotFound: boolean,
): ZodOpenApiResponsesObject {
  const okHeaders = rateLimitHeaders.extend({ ETag: etag, ...(paged ? { Link: link.optional() } : {}) });
  return {
    "200": { description, headers: okHeaders, content: { "application/json": { schema: ok } } },
    "304": {
      description: "Not modified: the If-None-Match validator still matches.",
      headers: rateLimitHeaders.extend({ ETag: etag }),
    },
    "400": refusal("A parameter or the cursor is not valid."),
    "401": refusal("No API key, or a key that is unknown or revoked."),
    ...(withNotFound ? { "404": refusal("Nothing has this id.") } : {}),
    "429": refusal(
      "The key's requests for this window are spent.",
      rateLimitHeaders.extend({ "Retry-After": z.string().meta({ description: "Seconds to wait." }) }),
    ),
  };
}

const list = (summary: string, query: z.ZodObject, ok: z.ZodType, tag: string): ZodOpenApiOperationObject => ({
  summary,
  tags: [tag],
  requestParams: { query },
  responses: responses(ok, summary, true, false),
});

const byId = (summary: string, ok: z.ZodType, tag: string): ZodOpenApiOperationObject => ({
  summary,
  tags: [tag],
  requestParams: { path: v1IdParams },
  responses: responses(ok, summary, false, true),
});

export function createApiDocument(publicUrl: string) {
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "OfferAtlas API",
      version: "1.0.0",
      description:
        `Read-only access to the directory's offers, networks, traffic sources and verticals. ` +
        `Every call needs an API key (create one at ${API_KEYS_PAGE}), sent as \`Authorization: Bearer <key>\` ` +
        `or \`X-Api-Key: <key>\`. Lists page with cursors; answers carry an ETag for conditional requests.`,
    },
    servers: [{ url: `${publicUrl.replace(/\/$/, "")}/api/v1` }],
    security: [{ bearer: [] }, { apiKey: [] }],
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "Authorization: Bearer <key>" },
        apiKey: { type: "apiKey", in: "header", name: "X-Api-Key" },
      },
    },
    paths: {
      "/offers": {
        get: list("Search offers (the site's search parameters)", v1OfferSearchQuery, v1OfferList, "Offers"),
      },
      "/offers/{id}": { get: byId("One offer with its payout history", v1OfferAnswer, "Offers") },
      "/networks": { get: list("Networks in name order", v1ListQuery, v1NetworkList, "Networks") },
      "/networks/{id}": { get: byId("One network with its reviews summary", v1NetworkAnswer, "Networks") },
      "/traffic-sources": {
        get: list("Traffic sources in name order", v1ListQuery, v1TrafficSourceList, "Traffic sources"),
      },
      "/verticals": {
        get: list("Verticals (offer categories) in name order", v1VerticalQuery, v1VerticalList, "Verticals"),
      },
      "/openapi.json": {
        get: {
          summary: "This document",
          tags: ["Meta"],
          security: [],
          responses: {
            "200": {
              description: "The OpenAPI 3.1 document (no key needed).",
              content: { "application/json": { schema: z.looseObject({ openapi: z.string() }) } },
            },
          },
        },
      },
    },
  });
}
