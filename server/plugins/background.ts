// Background work of the process, in one place: each job runs on a timer started
// when the server is ready and stopped when it closes. Timers are unref'd (they
// never keep the process alive) and a failed run is logged, then tried again.
// Jobs that must run once across instances claim their rows in the database
// (mail: SKIP LOCKED), so every instance can run them all.
import type { FastifyInstance } from "fastify";
import type { Services } from "#core/services.ts";

type Job = { name: string; everyMs: number; run: () => Promise<unknown> };

export function registerBackground(app: FastifyInstance, services: Services) {
  const jobs: Job[] = [
    // Mails whose delivery failed are retried with backoff (core/mail/mailer.ts).
    { name: "mail retry", everyMs: 30_000, run: () => services.mail.deliverDue() },
    // Searches are logged in batches, so a search never waits for a write (core/offers/search-log.ts).
    { name: "search log flush", everyMs: 1_000, run: () => services.offers.flushSearchLog() },
    // House-ad impressions and clicks are counted in batches too (core/ads/stats.ts).
    { name: "house ad stats flush", everyMs: 1_000, run: () => services.ads.flushStats() },
    // Alert mails: instant ones each minute, digests at their hour (core/alerts/alerts.ts).
    { name: "alerts", everyMs: 60_000, run: () => services.alerts.run() },
  ];
  const timers: NodeJS.Timeout[] = [];

  app.addHook("onReady", async () => {
    if (!services.antibot.enabled) {
      app.log.warn("anti-bot check is OFF: set RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET_KEY to enable reCAPTCHA v3");
    }
    for (const job of jobs) {
      const timer = setInterval(() => {
        job.run().catch((err: unknown) => app.log.error({ err }, `${job.name} failed`));
      }, job.everyMs);
      timer.unref();
      timers.push(timer);
    }
  });

  app.addHook("onClose", async () => {
    for (const timer of timers) clearInterval(timer);
    // What is pending is written once more before the database goes.
    await services.offers.flushSearchLog().catch((err: unknown) => app.log.error({ err }, "search log not written"));
    await services.ads.flushStats().catch((err: unknown) => app.log.error({ err }, "house ad stats not written"));
    services.mail.close();
  });
}
