// Wires the lead forms, the editorial content and the search-engine files into
// the core services (one line in core/services.ts).
import type { Database } from "#db/client.ts";
import type { Antibot } from "../antibot/recaptcha.ts";
import type { Mailer } from "../mail/mailer.ts";
import type { RateLimiter } from "../rate-limit/limiter.ts";
import type { NetworkService } from "../networks/networks.ts";
import { createContentService } from "../content/content.ts";
import { createSeoService } from "../seo/seo.ts";
import { createLeadService } from "./leads.ts";

export type LeadSettings = { publicUrl: string; dataDir: string; staffEmail?: string; log?: { warn(msg: string): void } };

export function createLeadServices(
  db: Database,
  settings: LeadSettings,
  shared: { antibot: Antibot; mail: Mailer; rateLimits: RateLimiter; networks: Pick<NetworkService, "options"> },
) {
  return {
    leads: createLeadService({
      db,
      dataDir: settings.dataDir,
      staffEmail: settings.staffEmail ?? shared.mail.staffEmail,
      mail: shared.mail,
      antibot: shared.antibot,
      limiter: shared.rateLimits,
      networkOptions: () => shared.networks.options(),
      log: settings.log ?? { warn: (m) => console.warn(`[offeratlas] ${m}`) },
    }),
    content: createContentService(),
    seo: createSeoService(db, { publicUrl: settings.publicUrl }),
  };
}
