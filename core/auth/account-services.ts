// Wires the account-related services (anti-bot, mail, rate limits, auth) from
// plain settings, so core/services.ts adds them with one line.
import path from "node:path";
import type { Database } from "#db/client.ts";
import { createAntibot, type AntibotSettings } from "../antibot/recaptcha.ts";
import { createMailer, type MailLog } from "../mail/mailer.ts";
import { createRateLimiter } from "../rate-limit/limiter.ts";
import { createAuthService } from "./auth.ts";

export type AccountSettings = {
  publicUrl: string;
  dataDir: string;
  smtpUrl?: string;
  mailFrom?: string;
  staffEmail?: string;
  recaptcha?: AntibotSettings;
  ipHashSalt?: string;
  /** Mark the session cookie Secure (production over https). */
  secureCookies?: boolean;
  log?: MailLog;
};

const consoleLog: MailLog = {
  info: (m) => console.log(`[offeratlas] ${m}`),
  warn: (m) => console.warn(`[offeratlas] ${m}`),
  error: (m) => console.error(`[offeratlas] ${m}`),
};

export function createAccountServices(db: Database, settings: AccountSettings) {
  const log = settings.log ?? consoleLog;
  const antibot = createAntibot(settings.recaptcha ?? { siteKey: "", secretKey: "", verifyUrl: "", minScore: 0.5 });
  const mail = createMailer(
    db,
    {
      smtpUrl: settings.smtpUrl,
      from: settings.mailFrom ?? "OfferAtlas <no-reply@offeratlas.localhost>",
      outboxDir: path.join(settings.dataDir, "outbox"),
      staffEmail: settings.staffEmail ?? "staff@offeratlas.localhost",
    },
    log,
  );
  const rateLimits = createRateLimiter(db);
  const auth = createAuthService({
    db,
    limiter: rateLimits,
    mail,
    antibot,
    log,
    publicUrl: settings.publicUrl,
    ipHashSalt: settings.ipHashSalt ?? "offeratlas-dev-salt",
  });
  return { antibot, mail, rateLimits, auth, secureCookies: settings.secureCookies ?? false };
}
