// The offer-sync queue and schedule (core/supply/scheduler.ts) in this process, when
// OFFER_SYNC_SCHEDULER is on: started once the server is ready, stopped on close
// before the database goes. A stop waits a bounded time for running syncs; one
// cut short is retried from the queue by whichever instance runs it next.
import type { FastifyInstance } from "fastify";
import type { Services } from "#core/services.ts";

export function registerOfferSync(app: FastifyInstance, services: Services, enabled: boolean) {
  if (!enabled) return;
  const scheduler = services.offerScheduler;
  app.addHook("onReady", async () => {
    await scheduler.start();
    app.log.info("offer sync scheduler started");
  });
  app.addHook("onClose", async () => {
    await scheduler.stop().catch((err: unknown) => app.log.error({ err }, "offer sync scheduler did not stop cleanly"));
  });
}
