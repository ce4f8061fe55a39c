// The public API's numbers and addresses that the /developers page shows, kept apart
// from the schemas in contracts/v1.ts so the page's browser bundle carries no zod: zod
// probes for eval on first use, which the Content-Security-Policy reports as a violation.

/** Items per page of a v1 list unless `limit` says otherwise, and the most it may say. */
export const V1_DEFAULT_LIMIT = 50;
export const V1_MAX_LIMIT = 100;
/** Where the /developers page loads Swagger UI's script and stylesheet from (server/plugins/api-docs.ts). */
export const SWAGGER_UI_PREFIX = "/vendor/swagger-ui/";
/** The published document, relative to the site. */
export const OPENAPI_PATH = "/api/v1/openapi.json";
