// Networks and their reviews (docs/product.md §7): thin adapters over core/networks and core/reviews.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { Services } from "#core/services.ts";
import { notFound } from "#core/errors.ts";
import { noLongerListed } from "#core/networks/networks.ts";
import { integerField } from "#contracts/validation.ts";
import { loggedInUserOr401 } from "./auth.ts";

const listQuery = z.object({
  featured: z.enum(["true", "false"]).optional(),
  search: z.string().max(200).optional(),
  // sort=name: the name-sorted list of docs/product.md §4 (only networks with offers).
  sort: z.enum(["name", "random"]).optional(),
});
const pageQuery = z.object({ page: integerField("Page", 1).optional() });

type IdParams = { id: string };

export async function networkRoutes(api: FastifyInstance, { services }: { services: Services }) {
  const { networks, reviews, reviewModeration } = services;
  const found = <T>(value: T | null): T => {
    if (!value) throw notFound("Network not found");
    return value;
  };
  // A retired network answers 410 (no longer listed) where an unknown one answers 404.
  const listed = async <T>(value: T | null, key: Parameters<typeof networks.retired>[0]): Promise<T> => {
    const retired = value ? null : await networks.retired(key);
    if (retired) throw noLongerListed(retired);
    return found(value);
  };

  api.get("/networks", async (request) => {
    const q = listQuery.parse(request.query);
    const siteId = request.site.id;
    if (q.sort === "name") return { networks: await networks.sortedByName(siteId) };
    return { networks: await networks.list(siteId, { featured: q.featured === "true", search: q.search }) };
  });

  api.get("/top-networks", async (request) => ({ networks: await networks.top(request.site.id) }));
  api.get("/random-paid-networks", async (request) => ({ networks: await networks.randomPaid(request.site.id) }));
  api.get("/network-options", async () => networks.options());

  // Static segments win over parameters in the router, so these come before /networks/:id/:slug.
  api.get<{ Params: IdParams }>("/networks/legacy/:id", async (request) => ({
    network: await listed(await networks.byLegacyId(request.site.id, request.params.id), {
      legacyId: request.params.id,
    }),
  }));

  api.get<{ Params: IdParams }>("/networks/:id/reviews", async (request) => {
    const { page } = pageQuery.parse(request.query);
    return reviews.list(request.params.id, page ?? 1);
  });

  api.post<{ Params: IdParams }>("/networks/:id/reviews", async (request, reply) => {
    const user = loggedInUserOr401(request);
    const result = await reviews.submit({
      networkId: request.params.id,
      userId: user.id,
      siteId: request.site.id,
      ip: request.ip,
      input: request.body ?? {},
    });
    return reply.status(result.created ? 201 : 200).send(result);
  });

  api.post<{ Params: IdParams & { reviewId: string } }>(
    "/networks/:id/reviews/:reviewId/report",
    async (request, reply) => {
      const user = loggedInUserOr401(request);
      const answer = await reviewModeration.report({
        networkId: request.params.id,
        reviewId: request.params.reviewId,
        userId: user.id,
        input: request.body ?? {},
      });
      return reply.status(201).send(answer);
    },
  );

  api.get<{ Params: IdParams }>("/networks/:id/join", async (request: FastifyRequest<{ Params: IdParams }>) =>
    networks.join({
      networkId: request.params.id,
      siteId: request.site.id,
      userId: request.user?.id ?? null,
      ip: request.ip,
      userAgent: request.headers["user-agent"],
    }),
  );

  // The slug is cosmetic here: the id decides; pages redirect to the canonical slug.
  api.get<{ Params: IdParams & { slug: string } }>("/networks/:id/:slug", async (request) => ({
    network: await listed(await networks.byId(request.site.id, request.params.id), { id: request.params.id }),
  }));

  api.get<{ Params: { slug: string } }>("/networks/:slug", async (request) => {
    const { slug } = request.params;
    const siteId = request.site.id;
    const network = (await networks.bySlug(siteId, slug)) ?? (await networks.byId(siteId, slug));
    return { network: await listed(network, /^[0-9]+$/.test(slug) ? { id: slug } : { slug }) };
  });
}
