// Lead forms: a network asking to be listed, an advertiser asking for a quote,
// a visitor asking support. Each is rate limited, anti-bot checked, validated,
// STORED, and only then mailed: a mail failure is the outbox's to retry, so an
// accepted submission is never lost.
import crypto from "node:crypto";
import { z } from "zod";
import { sql, type Database } from "#db/client.ts";
import { LEAD_ACTIONS, LEAD_CONFIRMATIONS, NETWORK_FIELDS, type LeadReceipt } from "#contracts/leads.ts";
import { advertisementRequestSchema, contactMessageSchema, networkSubmissionSchema } from "#contracts/lead-schemas.ts";
import type { NetworkOptions } from "#contracts/networks.ts";
import { messages } from "#contracts/validation.ts";
import { HttpError } from "../errors.ts";
import { checkLogo, removeStoredFile, storeLogo, type UploadedFile } from "./logo.ts";
import { advertiseMails, contactMails, networkMails, type LeadMail } from "./mails.ts";

export type LeadDeps = {
  db: Database;
  dataDir: string;
  staffEmail: string;
  mail: { send(message: LeadMail): Promise<void> };
  antibot: { verify(token: string | undefined, action: string, remoteIp?: string): Promise<void> };
  limiter: { consume(key: string, rule: { limit: number; windowSeconds: number }): Promise<void> };
  /** The form's choices: the same lists GET /api/network-options answers. */
  networkOptions: () => Promise<NetworkOptions>;
  log?: { warn(msg: string): void };
};

/** Who sent a form: the site it was sent on, the client address and the anti-bot token. */
export type LeadOrigin = { siteId: string; ip: string; token?: string };

/** Attempts per client address and form, valid or not (a person fixing typos stays well under). */
export const LEAD_RATE_LIMIT = { limit: 20, windowSeconds: 3600 } as const;
/**
 * Confirmations one address receives, whatever address (or how many) the forms were sent from: the
 * per-address limit above does not stop many senders from filling one stranger's inbox. Past it the
 * submission is still stored and the staff still told; only the sender's copy is skipped.
 */
export const CONFIRMATION_RATE_LIMIT = { limit: 5, windowSeconds: 24 * 3600 } as const;
/** A slow mail server must not hold the visitor's request: delivery goes on in the background. */
const MAIL_WAIT_MS = 5_000;

export function createLeadService(deps: LeadDeps) {
  const { db } = deps;
  async function guard(kind: keyof typeof LEAD_ACTIONS, origin: LeadOrigin) {
    const who = crypto.createHash("sha256").update(origin.ip).digest("hex").slice(0, 32);
    await deps.limiter.consume(`lead:${kind}:${who}`, LEAD_RATE_LIMIT);
  }

  /** False once an address has had its share of confirmations (counted across all forms). */
  async function mayConfirm(to: string) {
    const who = crypto.createHash("sha256").update(to.trim().toLowerCase()).digest("hex").slice(0, 32);
    try {
      await deps.limiter.consume(`lead-confirmation:${who}`, CONFIRMATION_RATE_LIMIT);
      return true;
    } catch (err) {
      if (err instanceof HttpError && err.status === 429) return false;
      throw err;
    }
  }

  /** Sends after the row is committed; waits a little, never fails the request. */
  async function notify(mails: LeadMail[]) {
    const send = async ({ confirmation, ...m }: LeadMail) => {
      if (confirmation && !(await mayConfirm(m.to))) {
        deps.log?.warn("lead confirmation skipped: that address had its share today");
        return;
      }
      await deps.mail.send(m);
    };
    const sending = Promise.all(
      mails.map((m) =>
        send(m).catch((err: unknown) => deps.log?.warn(`lead mail to ${m.to} not queued: ${String(err)}`)),
      ),
    );
    await Promise.race([sending, new Promise((resolve) => setTimeout(resolve, MAIL_WAIT_MS).unref())]);
  }

  return {
    async submitNetwork(input: unknown, logo: UploadedFile | undefined, origin: LeadOrigin): Promise<LeadReceipt> {
      await guard("network", origin);
      const parsed = networkSubmissionSchema(await deps.networkOptions()).safeParse(input);
      const issues: z.core.$ZodIssue[] = parsed.success ? [] : [...parsed.error.issues];
      // Decoding the logo costs more than the field checks, but both are answered together, and only
      // after the per-address limit above: the limit bounds how often one client makes us decode.
      const checked = logo ? await checkLogo(logo) : { error: messages.required(NETWORK_FIELDS.logo) };
      if ("error" in checked) issues.push({ code: "custom", path: ["logo"], message: checked.error, input: undefined });
      if (!parsed.success || "error" in checked) throw new z.ZodError(issues);
      await deps.antibot.verify(origin.token, LEAD_ACTIONS.network, origin.ip);

      const data = parsed.data;
      const logoPath = await storeLogo(deps.dataDir, checked);
      let id: number;
      try {
        const { networkName, email, ...details } = data;
        const [row] = await db.query<{ id: number }>(sql`
          INSERT INTO network_submissions (site_id, name, email, details, logo_path)
          VALUES (${origin.siteId}, ${networkName}, ${email}, ${JSON.stringify({ ...details, logo: { width: checked.width, height: checked.height, frames: checked.frames, bytes: checked.bytes.length } })}::jsonb, ${logoPath})
          RETURNING id`);
        id = row.id;
      } catch (err) {
        await removeStoredFile(deps.dataDir, logoPath);
        throw err;
      }
      await notify(networkMails(id, data, deps.staffEmail, logoPath));
      return { id, message: LEAD_CONFIRMATIONS.network };
    },

    async requestAdvertising(input: unknown, origin: LeadOrigin): Promise<LeadReceipt> {
      await guard("advertise", origin);
      const data = advertisementRequestSchema.parse(input);
      await deps.antibot.verify(origin.token, LEAD_ACTIONS.advertise, origin.ip);
      const { name, email, ...details } = data;
      const [row] = await db.query<{ id: number }>(sql`
        INSERT INTO advertisement_requests (site_id, name, email, details)
        VALUES (${origin.siteId}, ${name}, ${email}, ${JSON.stringify(details)}::jsonb)
        RETURNING id`);
      await notify(advertiseMails(row.id, data, deps.staffEmail));
      return { id: row.id, message: LEAD_CONFIRMATIONS.advertise };
    },

    async contactSupport(input: unknown, origin: LeadOrigin): Promise<LeadReceipt> {
      await guard("contact", origin);
      const data = contactMessageSchema.parse(input);
      await deps.antibot.verify(origin.token, LEAD_ACTIONS.contact, origin.ip);
      const [row] = await db.query<{ id: number }>(sql`
        INSERT INTO contact_messages (site_id, name, email, subject, message)
        VALUES (${origin.siteId}, ${data.name}, ${data.email}, ${`[${data.topic}] ${data.subject}`}, ${data.message})
        RETURNING id`);
      await notify(contactMails(row.id, data, deps.staffEmail));
      return { id: row.id, message: LEAD_CONFIRMATIONS.contact };
    },
  };
}
