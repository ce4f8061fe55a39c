// Resolves the site a request is for: the X-Site header or the `site` query
// parameter; missing or empty means the default site, unknown answers 400.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Services } from "#core/services.ts";
import type { Site } from "#contracts/site.ts";

const SITE_HEADER = "x-site";

declare module "fastify" {
  interface FastifyRequest {
    site: Site;
  }
}

export function registerSiteResolution(app: FastifyInstance, services: Services) {
  app.decorateRequest("site", null as unknown as Site);
  app.addHook("preHandler", async (request: FastifyRequest) => {
    const header = request.headers[SITE_HEADER];
    const query = (request.query as Record<string, unknown> | undefined)?.site;
    const body = request.body as Record<string, unknown> | undefined;
    const requested = [header, query, body && typeof body === "object" ? body.site : undefined].find(
      (v): v is string => typeof v === "string" && v.trim() !== "",
    );
    request.site = await services.sites.resolve(requested);
  });
}
