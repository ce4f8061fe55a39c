// GET /api/offers/export.csv (issue #14): the current offers search as a CSV file
// for signed-in users. A thin adapter over core/offers/export.ts.
import type { FastifyInstance } from "fastify";
import type { Services } from "#core/services.ts";
import { EXPORT_RATE_RULE, exportFileName, exportRows, exportSearchFromUrl, offersCsv } from "#core/offers/export.ts";
import { loggedInUserOr401 } from "./auth.ts";

export async function exportRoutes(api: FastifyInstance, { services }: { services: Services }) {
  api.get("/offers/export.csv", async (request, reply) => {
    const user = loggedInUserOr401(request);
    const input = exportSearchFromUrl(new URL(request.url, "http://x").searchParams);
    // Counted once the request is sound: a typo in a filter does not cost an export.
    await services.rateLimits.consume(`offers-export:${user.id}`, EXPORT_RATE_RULE);
    // Not logged as a search: top searches count people searching, not files.
    const rows = await exportRows((page) => services.offers.search(page), input);
    return reply
      .header("content-type", "text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="${exportFileName(new Date())}"`)
      .header("cache-control", "no-store")
      .send(offersCsv(rows, services.seo.origin(request.site)));
  });
}
