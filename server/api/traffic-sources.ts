// Traffic sources (docs/product.md §7): the listing, detail by id and by old-site id.
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Services } from "#core/services.ts";
import { notFound } from "#core/errors.ts";

const listQuery = z.object({ search: z.string().max(200).optional() });

export async function trafficSourceRoutes(api: FastifyInstance, { services }: { services: Services }) {
  const { trafficSources } = services;
  const found = <T>(value: T | null): T => {
    if (!value) throw notFound("Traffic source not found");
    return value;
  };

  api.get("/traffic-sources", async (request) => {
    const { search } = listQuery.parse(request.query);
    return { trafficSources: await trafficSources.list({ search }) };
  });
  api.get<{ Params: { id: string } }>("/traffic-sources/legacy/:id", async (request) => ({
    trafficSource: found(await trafficSources.byLegacyId(request.params.id)),
  }));
  api.get<{ Params: { id: string } }>("/traffic-sources/:id", async (request) => ({
    trafficSource: found(await trafficSources.byId(request.params.id)),
  }));
}
