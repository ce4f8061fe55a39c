// Wires networks, traffic sources and reviews into the core services. Reviews
// reuse the shared anti-bot check and rate limiter of the account services.
import type { Database } from "#db/client.ts";
import type { Antibot } from "../antibot/recaptcha.ts";
import type { RateLimiter } from "../rate-limit/limiter.ts";
import { createReviewService } from "../reviews/reviews.ts";
import { createTrafficSourceService } from "../traffic-sources/traffic-sources.ts";
import { createNetworkService } from "./networks.ts";

export function createReputationServices(
  db: Database,
  settings: { ipHashSalt?: string },
  shared: { antibot: Antibot; rateLimits: RateLimiter },
) {
  return {
    networks: createNetworkService(db, { ipHashSalt: settings.ipHashSalt ?? "" }),
    trafficSources: createTrafficSourceService(db),
    reviews: createReviewService(db, { antibot: shared.antibot, rateLimiter: shared.rateLimits }),
  };
}
