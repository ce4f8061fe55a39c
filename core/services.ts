// The core services, assembled once per process in dependency order and shared by
// the API routes and the page loaders, so every rule lives in one place. Every
// setting is given: the defaults live in server/config.ts and nowhere else.
import path from "node:path";
import type { Database } from "#db/client.ts";
import type { SharedStore } from "#core/cache/cache.ts";
import type { Generation } from "#core/cache/generation.ts";
import { createAdService } from "#core/ads/ads.ts";
import { createAntibot, type AntibotSettings } from "#core/antibot/recaptcha.ts";
import { createAuditService } from "#core/audit/audit.ts";
import { createInboxService } from "#core/inbox/inbox.ts";
import { createRoleService } from "#core/auth/roles.ts";
import { createDashboardService } from "#core/dashboard/dashboard.ts";
import { createAuthService } from "#core/auth/auth.ts";
import { createContentService } from "#core/content/content.ts";
import { createLeadService } from "#core/leads/leads.ts";
import { createMailer, type MailLog } from "#core/mail/mailer.ts";
import { createNetworkService } from "#core/networks/networks.ts";
import { createOfferService } from "#core/offers/offers.ts";
import { createRateLimiter } from "#core/rate-limit/limiter.ts";
import { createReviewModeration } from "#core/reviews/moderation.ts";
import { createReviewService } from "#core/reviews/reviews.ts";
import { createSeoService } from "#core/seo/seo.ts";
import { createSecrets } from "#core/supply/secrets.ts";
import { createOfferSources } from "#core/supply/sources.ts";
import { createFeedFiles } from "#core/supply/feed-files.ts";
import { createOfferSync } from "#core/supply/sync.ts";
import { createOfferScheduler } from "#core/supply/scheduler.ts";
import { createPlatformCategories } from "#core/supply/categories.ts";
import { createSiteService } from "#core/sites/sites.ts";
import { createSiteTagService } from "#core/sites/tags.ts";
import { createSubmissionService } from "#core/submissions/submissions.ts";
import { createTrafficSourceService } from "#core/traffic-sources/traffic-sources.ts";
import { createNetworkEditor } from "#core/networks/editor.ts";
import { createTrafficSourceEditor } from "#core/traffic-sources/editor.ts";
import { createVerticalEditor } from "#core/reference/verticals.ts";
import { createWatchlist } from "#core/account/watchlist.ts";
import { createPersonalParts } from "#core/account/personal.ts";
import { createApiKeyService } from "#core/account/api-keys.ts";
import { createSavedSearches } from "#core/account/saved-searches.ts";
import { createAlerts } from "#core/alerts/alerts.ts";

export type CoreSettings = {
  /** The site served when a request names none. */
  siteId: string;
  publicUrl: string;
  /** Mail files (the outbox) and uploaded logos live under it. */
  dataDir: string;
  /** SMTP in production; without it mails are written as files under dataDir/outbox. */
  smtpUrl: string | undefined;
  mailFrom: string;
  staffEmail: string;
  recaptcha: AntibotSettings;
  /** Secret mixed into every hashed client address (sessions, search log, join clicks). */
  ipHashSalt: string;
  /** How long a search answer is reused; 0 turns the cache off. */
  searchCacheSeconds: number;
  /** Hold a new account's first review for a moderator. */
  holdFirstReviews: boolean;
  /** The key of stored platform credentials; without it none can be stored. */
  secretsKey: Buffer | undefined;
  /** Mark the session cookie Secure (production over https). */
  secureCookies: boolean;
  /** REDIS_URL: the cached answers and the catalogue's generation every instance shares. */
  shared?: { store: SharedStore; generation: Generation };
  /** DATABASE_READ_URL: where searches read (a replica); the primary otherwise. */
  readDb?: Database;
  log: MailLog;
};

export function createServices(db: Database, settings: CoreSettings) {
  const { log, ipHashSalt } = settings;
  const antibot = createAntibot(settings.recaptcha);
  const rateLimits = createRateLimiter(db);
  const mail = createMailer(
    db,
    {
      smtpUrl: settings.smtpUrl,
      from: settings.mailFrom,
      outboxDir: path.join(settings.dataDir, "outbox"),
      staffEmail: settings.staffEmail,
    },
    log,
  );
  const auth = createAuthService({
    db,
    limiter: rateLimits,
    mail,
    antibot,
    log,
    publicUrl: settings.publicUrl,
    ipHashSalt,
  });
  const networks = createNetworkService(db, { ipHashSalt, limiter: rateLimits });
  const offers = createOfferService(db, {
    searchCacheTtlMs: settings.searchCacheSeconds * 1000,
    ipHashSalt,
    generation: settings.shared?.generation,
    sharedStore: settings.shared?.store,
    readDb: settings.readDb,
  });
  // A catalogue edit shows at once: searches, lists and page copies built before it are forgotten.
  const catalogueChanged = offers.catalogueChanged;
  const secrets = createSecrets(settings.secretsKey);
  const offerSync = createOfferSync(db, { secrets, onCatalogueChanged: catalogueChanged, log });
  return {
    db,
    secureCookies: settings.secureCookies,
    secrets,
    offerSources: createOfferSources(db, secrets, { dataDir: settings.dataDir }),
    feedFiles: createFeedFiles(db, secrets, settings.dataDir),
    offerSync,
    // Started by server/plugins/offer-sync.ts where configured; "Sync now" works either way.
    offerScheduler: createOfferScheduler(db, offerSync, { log }),
    platformCategories: createPlatformCategories(db, { onCatalogueChanged: catalogueChanged }),
    sites: createSiteService(db, settings.siteId),
    siteTags: createSiteTagService(db),
    ads: createAdService(db),
    offers,
    antibot,
    mail,
    rateLimits,
    auth,
    networks,
    trafficSources: createTrafficSourceService(db),
    networkEditor: createNetworkEditor(db, { onChange: catalogueChanged }),
    trafficSourceEditor: createTrafficSourceEditor(db, { onChange: catalogueChanged }),
    verticalEditor: createVerticalEditor(db, { onChange: catalogueChanged }),
    reviews: createReviewService(db, { antibot, rateLimiter: rateLimits, holdFirstReviews: settings.holdFirstReviews }),
    reviewModeration: createReviewModeration(db, { limiter: rateLimits }),
    leads: createLeadService({
      db,
      dataDir: settings.dataDir,
      staffEmail: settings.staffEmail,
      mail,
      antibot,
      limiter: rateLimits,
      networkOptions: () => networks.options(),
      log,
    }),
    content: createContentService(),
    audit: createAuditService(db),
    inbox: createInboxService(db),
    roles: createRoleService(db),
    dashboard: createDashboardService(db),
    submissions: createSubmissionService({ db, dataDir: settings.dataDir, mail, log }),
    seo: createSeoService(db, { publicUrl: settings.publicUrl }),
    watchlist: createWatchlist(db),
    personalParts: createPersonalParts(db, auth),
    // Keys for the public read API; /api/v1 verifies them on every request.
    apiKeys: createApiKeyService(db),
    savedSearches: createSavedSearches(db),
    // E-mail alerts of saved searches and watchlists, run every minute by server/plugins/background.ts.
    alerts: createAlerts(db, { mail, publicUrl: settings.publicUrl, log, limiter: rateLimits, ipHashSalt }),
  };
}

export type Services = ReturnType<typeof createServices>;
