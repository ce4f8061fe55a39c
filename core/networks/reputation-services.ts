// Wires networks, traffic sources and reviews from plain settings, so
// core/services.ts adds them with one line. The anti-bot check and the rate
// limiter are stateless over the database, so this side builds its own.
import type { Database } from "#db/client.ts";
import { createAntibot, type AntibotSettings } from "../antibot/recaptcha.ts";
import { createRateLimiter } from "../rate-limit/limiter.ts";
import { createReviewService } from "../reviews/reviews.ts";
import { createTrafficSourceService } from "../traffic-sources/traffic-sources.ts";
import { createNetworkService } from "./networks.ts";

export type ReputationSettings = { ipHashSalt?: string; recaptcha?: AntibotSettings };

export function createReputationServices(db: Database, settings: ReputationSettings) {
  const ipHashSalt = settings.ipHashSalt ?? "offeratlas-dev-salt";
  const antibot = createAntibot(settings.recaptcha ?? { siteKey: "", secretKey: "", verifyUrl: "", minScore: 0.5 });
  return {
    networks: createNetworkService(db, { ipHashSalt }),
    trafficSources: createTrafficSourceService(db),
    reviews: createReviewService(db, { antibot, rateLimiter: createRateLimiter(db) }),
  };
}
