// Outgoing mail: stored first, delivered over a real (in-process) SMTP server
// or to .eml files, failures recorded and retried, never thrown at the caller.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { createMailer, retryDelaySeconds, type MailLog } from "#core/mail/mailer.ts";
import { openTestDatabase } from "../helpers/database.ts";
import { createTestApp } from "../helpers/app.ts";
import { resetLinkIn, startSmtpServer, type SmtpTestServer } from "../helpers/smtp.ts";

type Db = Awaited<ReturnType<typeof openTestDatabase>>;
let db: Db;
let smtp: SmtpTestServer;
let tmp: string;
const logs: string[] = [];
const log: MailLog = { info: (m) => logs.push(m), warn: (m) => logs.push(m), error: (m) => logs.push(m) };

beforeAll(async () => {
  db = await openTestDatabase();
  smtp = await startSmtpServer();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "oa-mail-"));
});
afterAll(async () => {
  await smtp?.close();
  await db?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

type OutboxRow = {
  recipient: string;
  sent_at: Date | null;
  attempts: number;
  last_error: string | null;
  retry_in: number;
};
const outbox = (to: string) =>
  db.query<OutboxRow>(sql`
    SELECT recipient, sent_at, attempts, last_error, extract(epoch FROM next_attempt_at - now()) AS retry_in
    FROM mail_outbox WHERE recipient = ${to}`);

const settings = (over: Partial<{ smtpUrl: string; outboxDir: string }> = {}) => ({
  from: "OfferAtlas <no-reply@offeratlas.test>",
  outboxDir: path.join(tmp, "outbox"),
  staffEmail: "staff@offeratlas.test",
  ...over,
});

describe("createMailer over SMTP", () => {
  it("stores the message, then delivers it", async () => {
    const mailer = createMailer(db, settings({ smtpUrl: smtp.url }), log);
    await mailer.send({ to: "ann@example.com", subject: "Hello Ann", text: "First line\nSecond line" });
    const mail = await smtp.waitFor("ann@example.com");
    expect(mail.subject).toBe("Hello Ann");
    expect(mail.from).toBe("no-reply@offeratlas.test");
    expect(mail.text).toContain("Second line");
    const [row] = await outbox("ann@example.com");
    expect(row.sent_at).not.toBeNull();
    expect(row.attempts).toBe(1);
    mailer.close();
  });

  it("records a failed delivery with backoff and retries it when due", async () => {
    const refusing = await startSmtpServer({ rejectRecipients: true });
    const failing = createMailer(db, settings({ smtpUrl: refusing.url }), log);
    await expect(failing.send({ to: "bob@example.com", subject: "Retry me", text: "Body" })).resolves.toBeUndefined();
    let [row] = await outbox("bob@example.com");
    expect(row.sent_at).toBeNull();
    expect(row.attempts).toBe(1);
    expect(row.last_error).toMatch(/550|Mailbox unavailable/);
    expect(row.retry_in).toBeGreaterThan(retryDelaySeconds(1) - 5);
    // Not due yet: nothing is retried.
    expect(await failing.deliverDue()).toBe(0);
    failing.close();
    await refusing.close();

    await db.query(sql`UPDATE mail_outbox SET next_attempt_at = now() WHERE recipient = 'bob@example.com'`);
    const working = createMailer(db, settings({ smtpUrl: smtp.url }), log);
    expect(await working.deliverDue()).toBe(1);
    expect((await smtp.waitFor("bob@example.com")).subject).toBe("Retry me");
    [row] = await outbox("bob@example.com");
    expect(row.sent_at).not.toBeNull();
    expect(row.attempts).toBe(2);
    expect(await working.deliverDue()).toBe(0);
    working.close();
  });

  it("backs off exponentially up to six hours", () => {
    expect([1, 2, 3].map(retryDelaySeconds)).toEqual([60, 120, 240]);
    expect(retryDelaySeconds(30)).toBe(6 * 3600);
  });

  it("survives an unreachable server", async () => {
    const mailer = createMailer(db, settings({ smtpUrl: "smtp://127.0.0.1:9" }), log);
    await expect(mailer.send({ to: "carol@example.com", subject: "S", text: "T" })).resolves.toBeUndefined();
    const [row] = await outbox("carol@example.com");
    expect(row.attempts).toBe(1);
    expect(row.last_error).toBeTruthy();
    mailer.close();
  });
});

describe("createMailer without SMTP", () => {
  it("writes an .eml file under the outbox directory", async () => {
    const dir = path.join(tmp, "file-outbox");
    const mailer = createMailer(db, settings({ outboxDir: dir }), log);
    expect(mailer.mode).toBe("file");
    await mailer.send({ to: "dave@example.com", subject: "Filed", text: "Read me from disk" });
    const files = fs.readdirSync(dir).filter((f) => f.endsWith(".eml"));
    expect(files).toHaveLength(1);
    const eml = fs.readFileSync(path.join(dir, files[0]), "utf8");
    expect(eml).toMatch(/^To: dave@example.com$/m);
    expect(eml).toMatch(/^Subject: Filed$/m);
    expect(eml).toContain("Read me from disk");
    expect((await outbox("dave@example.com"))[0].sent_at).not.toBeNull();
  });
});

describe("password reset mail through the app", () => {
  it("sends the reset link over SMTP; the link resets the password", async () => {
    const t = await createTestApp({
      seed: false,
      env: { SMTP_URL: smtp.url, PUBLIC_URL: "https://offeratlas.example" },
    });
    try {
      const password = "silver canyon 8";
      const reg = await t.app.inject({
        method: "POST",
        url: "/api/auth/register/",
        payload: { email: "erin@example.com", password, confirmPassword: password, name: "Erin" },
      });
      expect(reg.statusCode).toBe(201);
      const res = await t.app.inject({
        method: "POST",
        url: "/api/auth/forgot-password",
        payload: { email: "erin@example.com" },
      });
      expect(res.statusCode).toBe(200);
      const mail = await smtp.waitFor("erin@example.com");
      expect(mail.subject).toBe("Reset your OfferAtlas password");
      const link = resetLinkIn(mail.text);
      expect(link.origin).toBe("https://offeratlas.example");
      const token = link.searchParams.get("token")!;
      const fresh = "granite harbor 3";
      const reset = await t.app.inject({
        method: "POST",
        url: "/api/auth/reset-password",
        payload: { token, password: fresh, confirmPassword: fresh },
      });
      expect(reset.statusCode).toBe(200);
      const login = await t.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { email: "erin@example.com", password: fresh },
      });
      expect(login.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
