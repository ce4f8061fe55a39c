// The core services, assembled once per process and shared by the API routes
// and the page loaders, so every rule lives in one place.
import type { Database } from "#db/client.ts";
import { createAdService } from "./ads/ads.ts";
import { createOfferService } from "./offers/offers.ts";
import { createSiteService } from "./sites/sites.ts";

export type CoreSettings = {
  siteId: string;
  publicUrl: string;
  dataDir: string;
};

export function createServices(db: Database, settings: CoreSettings) {
  return {
    db,
    settings,
    sites: createSiteService(db, settings.siteId),
    ads: createAdService(db),
    offers: createOfferService(db),
  };
}

export type Services = ReturnType<typeof createServices>;
