// The resources of the public API: thin adapters over the services the site uses.
// Every answer is parsed through its contract (contracts/v1.ts), which keeps the
// public fields only and guarantees the body is what the OpenAPI document says.
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import type { Services } from "#core/services.ts";
import { notFound } from "#core/errors.ts";
import { OFFERS_PAGE_SIZE, offerSearchPayload } from "#contracts/offers.ts";
import {
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
import { sendRead } from "./conditional.ts";
import { linkNext, nameOrderPage, offerCursorAfter, offerPageOf, pageLimit } from "./paging.ts";

/** The answer as its contract shapes it; the input type ties the services' types to the contract. */
const answer = <S extends z.ZodType>(schema: S, value: z.input<S>): z.output<S> => schema.parse(value);

export async function v1Resources(api: FastifyInstance, { services }: { services: Services }) {
  const { offers, networks, reviews, trafficSources } = services;

  api.get("/offers", async (request, reply) => {
    const q = v1OfferSearchQuery.parse(request.query);
    const page = offerPageOf(q.cursor);
    const search = offerSearchPayload.parse({
      query: q.search,
      page,
      sortBy: q.sortBy,
      sortDesc: q.sortDesc,
      networks: q.networks,
      countries: q.countries,
      categories: q.categories,
      ppc: q.ppc,
      mobile: q.mobile,
      selectedTab: q.selectedTab,
    });
    // Not logged: scripts' searches would crowd the visitors' own out of the site's top searches.
    const result = await offers.search(search);
    const next = offerCursorAfter(page, Math.ceil(result.total / OFFERS_PAGE_SIZE));
    linkNext(request, reply, next);
    return sendRead(
      request,
      reply,
      answer(v1OfferList, {
        // The site's sponsored pins repeat offers ranked further down; a data client wants each once.
        offers: result.offers.filter((o) => !o.pinned),
        total: result.total,
        totalCapped: result.totalCapped,
        next,
      }),
    );
  });

  api.get("/offers/:id", async (request, reply) => {
    const { id } = v1IdParams.parse(request.params);
    const offer = await offers.lookup(request.site.id, { id });
    if (!offer || offer.status === "retired") throw notFound("Offer not found");
    return sendRead(request, reply, answer(v1OfferAnswer, { offer }));
  });

  api.get("/networks", async (request, reply) => {
    const q = v1ListQuery.parse(request.query);
    const page = nameOrderPage(
      await networks.list(request.site.id, { search: q.search }),
      q.cursor,
      pageLimit(q.limit),
    );
    linkNext(request, reply, page.next);
    return sendRead(request, reply, answer(v1NetworkList, { networks: page.items, next: page.next }));
  });

  api.get("/networks/:id", async (request, reply) => {
    const { id } = v1IdParams.parse(request.params);
    const network = await networks.byId(request.site.id, id);
    if (!network) throw notFound("Network not found");
    // One review per page: the summary (stars, average, trust score) is what is wanted here.
    const { distribution, avgRating, reviewCount, trustScore } = await reviews.list(network.id, 1, 1);
    return sendRead(
      request,
      reply,
      answer(v1NetworkAnswer, {
        network: { ...network, reviews: { distribution, avgRating, reviewCount, trustScore } },
      }),
    );
  });

  api.get("/traffic-sources", async (request, reply) => {
    const q = v1ListQuery.parse(request.query);
    const page = nameOrderPage(await trafficSources.list({ search: q.search }), q.cursor, pageLimit(q.limit));
    linkNext(request, reply, page.next);
    return sendRead(request, reply, answer(v1TrafficSourceList, { trafficSources: page.items, next: page.next }));
  });

  api.get("/verticals", async (request, reply) => {
    const q = v1VerticalQuery.parse(request.query);
    const page = nameOrderPage(await offers.categories(), q.cursor, pageLimit(q.limit));
    linkNext(request, reply, page.next);
    return sendRead(request, reply, answer(v1VerticalList, { verticals: page.items, next: page.next }));
  });
}
