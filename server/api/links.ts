// GET /api/links?page=&site= (docs/product.md §7): the sitemap-style list of every
// network, traffic source and offer of the site, one page at a time.
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Services } from "#core/services.ts";
import { integerField } from "#contracts/validation.ts";

const query = z.object({ page: integerField("Page", 1).optional() });

export async function linkRoutes(api: FastifyInstance, { services }: { services: Services }) {
  api.get("/links", async (request, reply) => {
    const { page } = query.parse(request.query);
    // The same for every visitor and slow-changing: let a CDN keep it briefly.
    reply.header("cache-control", "public, max-age=300");
    return services.seo.links(request.site.id, page ?? 1);
  });
}
