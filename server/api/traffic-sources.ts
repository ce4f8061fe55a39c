// Traffic sources (docs/product.md §7): the listing, detail by id and by old-site id.
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Services } from "#core/services.ts";
import { notFound } from "#core/errors.ts";
import { noLongerListed } from "#core/networks/networks.ts";

const listQuery = z.object({ search: z.string().max(200).optional() });

export async function trafficSourceRoutes(api: FastifyInstance, { services }: { services: Services }) {
  const { trafficSources } = services;
  const found = <T>(value: T | null): T => {
    if (!value) throw notFound("Traffic source not found");
    return value;
  };
  // A retired traffic source answers 410 (no longer listed) where an unknown one answers 404.
  const listed = async <T>(value: T | null, key: Parameters<typeof trafficSources.retired>[0]): Promise<T> => {
    const retired = value ? null : await trafficSources.retired(key);
    if (retired) throw noLongerListed(retired);
    return found(value);
  };

  api.get("/traffic-sources", async (request) => {
    const { search } = listQuery.parse(request.query);
    return { trafficSources: await trafficSources.list({ search }) };
  });
  api.get<{ Params: { id: string } }>("/traffic-sources/legacy/:id", async (request) => ({
    trafficSource: await listed(await trafficSources.byLegacyId(request.params.id), { legacyId: request.params.id }),
  }));
  api.get<{ Params: { id: string } }>("/traffic-sources/:id", async (request) => ({
    trafficSource: await listed(await trafficSources.byId(request.params.id), { id: request.params.id }),
  }));
}
