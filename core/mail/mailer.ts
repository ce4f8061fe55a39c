// Outgoing mail. Every message is first stored in mail_outbox, then delivered:
// over SMTP (SMTP_URL) in production, or as an .eml file under DATA_DIR/outbox
// by default, so a newcomer can read what the site sends. A failed delivery is
// recorded and retried later with backoff; it is never thrown at the caller.
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import { sql, type Queryable } from "#db/client.ts";

export type MailSettings = { smtpUrl?: string; from: string; outboxDir: string; staffEmail: string };
/** `headers`: extra headers stored with the message and sent with every attempt (e.g. List-Unsubscribe). */
export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
};
export type MailLog = { info(msg: string): void; warn(msg: string): void; error(msg: string): void };

type OutboxRow = {
  id: number;
  recipient: string;
  subject: string;
  body_text: string;
  body_html: string | null;
  headers: Record<string, string>;
  attempts: number;
};

const MAX_ATTEMPTS = 10;
// A claimed message is not picked up again by another instance for this long.
const CLAIM_SECONDS = 300;
const BATCH = 20;

/** Seconds until the next try after `attempts` failures: 1 min, 2, 4 … capped at 6 h. */
export const retryDelaySeconds = (attempts: number) => Math.min(60 * 2 ** Math.max(0, attempts - 1), 6 * 3600);

export function createMailer(db: Queryable, settings: MailSettings, log: MailLog) {
  const transport = settings.smtpUrl
    ? nodemailer.createTransport(settings.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  const mode: "smtp" | "file" = settings.smtpUrl ? "smtp" : "file";

  async function deliver(row: OutboxRow): Promise<boolean> {
    const message = {
      from: settings.from,
      to: row.recipient,
      subject: row.subject,
      text: row.body_text,
      html: row.body_html ?? undefined,
      headers: row.headers,
    };
    try {
      const info = await transport.sendMail(message);
      if (mode === "file") {
        // Mails carry working credentials (password-reset links): readable by the server's user only.
        await fs.mkdir(settings.outboxDir, { recursive: true, mode: 0o700 });
        const file = path.join(settings.outboxDir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${row.id}.eml`);
        await fs.writeFile(file, (info as unknown as { message: Buffer }).message, { mode: 0o600 });
        log.info(`mail #${row.id} to ${row.recipient} written to ${file}`);
      }
      await db.query(
        sql`UPDATE mail_outbox SET sent_at = now(), attempts = attempts + 1, last_error = NULL WHERE id = ${row.id}`,
      );
      return true;
    } catch (err) {
      const attempts = row.attempts + 1;
      const reason = err instanceof Error ? err.message : String(err);
      await db.query(sql`
        UPDATE mail_outbox SET attempts = ${attempts}, last_error = ${reason.slice(0, 1000)},
          next_attempt_at = now() + make_interval(secs => ${retryDelaySeconds(attempts)})
        WHERE id = ${row.id}`);
      log.warn(`mail #${row.id} delivery failed (attempt ${attempts}): ${reason}`);
      return false;
    }
  }

  return {
    mode,
    /** Where file mode writes mails (undefined over SMTP). */
    outboxDir: mode === "file" ? settings.outboxDir : undefined,
    staffEmail: settings.staffEmail,
    /** Stores the message, then tries to deliver it once. Never throws for a delivery failure. */
    async send(message: MailMessage): Promise<void> {
      const [row] = await db.query<OutboxRow>(sql`
        INSERT INTO mail_outbox (recipient, subject, body_text, body_html, headers, next_attempt_at)
        VALUES (${message.to}, ${message.subject}, ${message.text}, ${message.html ?? null},
          ${JSON.stringify(message.headers ?? {})}::jsonb, now() + make_interval(secs => ${CLAIM_SECONDS}))
        RETURNING id, recipient, subject, body_text, body_html, headers, attempts`);
      await deliver(row);
    },
    /**
     * Stores the message inside the caller's transaction, due at once: it exists exactly when
     * the caller's other writes do (an alert digest and its mentions), and deliverDue sends it.
     */
    async enqueue(q: Queryable, message: MailMessage): Promise<number> {
      const [row] = await q.query<{ id: number }>(sql`
        INSERT INTO mail_outbox (recipient, subject, body_text, body_html, headers)
        VALUES (${message.to}, ${message.subject}, ${message.text}, ${message.html ?? null},
          ${JSON.stringify(message.headers ?? {})}::jsonb)
        RETURNING id`);
      return Number(row.id);
    },
    /** Retries messages whose next attempt is due; returns how many were delivered. */
    async deliverDue(): Promise<number> {
      // Claim a batch first (SKIP LOCKED), so two instances never send the same message.
      const rows = await db.query<OutboxRow>(sql`
        UPDATE mail_outbox SET next_attempt_at = now() + make_interval(secs => ${CLAIM_SECONDS})
        WHERE id IN (
          SELECT id FROM mail_outbox
          WHERE sent_at IS NULL AND next_attempt_at <= now() AND attempts < ${MAX_ATTEMPTS}
          ORDER BY next_attempt_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
        RETURNING id, recipient, subject, body_text, body_html, headers, attempts`);
      let delivered = 0;
      for (const row of rows) if (await deliver(row)) delivered++;
      return delivered;
    },
    close() {
      transport.close();
    },
  };
}

export type Mailer = ReturnType<typeof createMailer>;
