// The core services, assembled once per process and shared by the API routes
// and the page loaders, so every rule lives in one place.
import type { Database } from "#db/client.ts";
import { createAdService } from "./ads/ads.ts";
import { createAccountServices, type AccountSettings } from "./auth/account-services.ts";
import { createOfferService } from "./offers/offers.ts";
import { createReputationServices } from "./networks/reputation-services.ts";
import { createSiteService } from "./sites/sites.ts";
import { createLeadServices } from "./leads/index.ts";

export type CoreSettings = {
  siteId: string;
  publicUrl: string;
  dataDir: string;
  searchCacheSeconds?: number;
} & Omit<AccountSettings, "publicUrl" | "dataDir">;

export function createServices(db: Database, settings: CoreSettings) {
  const accounts = createAccountServices(db, settings);
  const core = {
    db,
    settings,
    sites: createSiteService(db, settings.siteId),
    ads: createAdService(db),
    offers: createOfferService(db, {
      searchCacheTtlMs: (settings.searchCacheSeconds ?? 15) * 1000,
      ipHashSalt: settings.ipHashSalt ?? "",
    }),
    // antibot, mail, rateLimits, auth, secureCookies
    ...accounts,
    // networks, trafficSources, reviews
    ...createReputationServices(db, settings, accounts),
  };
  // leads, content, seo (they use mail, antibot, rate limits and network options above)
  return { ...core, ...createLeadServices(db, settings, core) };
}

export type Services = ReturnType<typeof createServices>;
