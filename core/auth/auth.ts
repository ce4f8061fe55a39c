// Accounts: registration, login and logout, and password reset by mail. Every
// entry point is rate limited per IP (and per account where one is named) and,
// when configured, checked by the anti-bot verifier. Answers never reveal
// whether an address has an account, except the 409 the spec asks of register.
import { sql, array, type Database } from "#db/client.ts";
import { ANTIBOT_ACTIONS, type SessionUser } from "#contracts/auth.ts";
import type { Antibot } from "../antibot/recaptcha.ts";
import { HttpError } from "../errors.ts";
import type { Mailer, MailLog } from "../mail/mailer.ts";
import type { RateLimiter, RateRule } from "../rate-limit/limiter.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { assertAcceptablePassword } from "./password-policy.ts";
import { createSessionStore, toSessionUser, type NewSession, type UserRow } from "./sessions.ts";
import { hashIp, hashToken, newToken } from "./tokens.ts";

export type RequestMeta = { ip: string; userAgent?: string };

export type AuthDeps = {
  db: Database;
  limiter: RateLimiter;
  mail: Mailer;
  antibot: Antibot;
  log: MailLog;
  publicUrl: string;
  ipHashSalt: string;
  limits?: Partial<typeof DEFAULT_LIMITS>;
};

export const DEFAULT_LIMITS = {
  loginPerIp: { limit: 30, windowSeconds: 15 * 60 },
  loginPerAccount: { limit: 10, windowSeconds: 15 * 60 },
  registerPerIp: { limit: 10, windowSeconds: 60 * 60 },
  forgotPerIp: { limit: 10, windowSeconds: 60 * 60 },
  forgotPerAccount: { limit: 3, windowSeconds: 60 * 60 },
  resetPerIp: { limit: 20, windowSeconds: 60 * 60 },
} satisfies Record<string, RateRule>;

export const RESET_TOKEN_SECONDS = 3600;
export const INVALID_CREDENTIALS = "Invalid email or password";
export const EMAIL_TAKEN = "An account with this email address already exists";
export const INVALID_RESET_LINK = "This password reset link is invalid or has expired";
export const NOT_LOGGED_IN = "You must be logged in";

export type RegisterFields = {
  email: string;
  password: string;
  name: string;
  phone?: string;
  company?: string;
  messenger?: string;
  "g-recaptcha-response"?: string;
};

const emailKey = (email: string) => email.trim().toLowerCase();

export function createAuthService(deps: AuthDeps) {
  const { db, limiter, mail, antibot, log } = deps;
  const limits = { ...DEFAULT_LIMITS, ...deps.limits };
  const sessions = createSessionStore(db, deps.ipHashSalt);
  // Unknown emails still pay for one argon2 verification, so timing does not tell accounts apart.
  let dummyHash: Promise<string> | undefined;
  const ipKey = (scope: string, ip: string) => `${scope}:ip:${hashIp(ip, deps.ipHashSalt)}`;

  return {
    sessions,

    async register(input: RegisterFields, siteId: string, meta?: RequestMeta): Promise<SessionUser> {
      if (meta) await limiter.consume(ipKey("register", meta.ip), limits.registerPerIp);
      await antibot.verify(input["g-recaptcha-response"], ANTIBOT_ACTIONS.register, meta?.ip);
      assertAcceptablePassword(input.password);
      const passwordHash = await hashPassword(input.password);
      const [row] = await db.query<UserRow>(sql`
        INSERT INTO users (email, email_key, password_hash, name, phone, company, messenger, scope, site_id)
        VALUES (${input.email.trim()}, ${emailKey(input.email)}, ${passwordHash}, ${input.name}, ${input.phone ?? null},
          ${input.company ?? null}, ${input.messenger ?? null}, ${array<string>([])}::text[], ${siteId})
        ON CONFLICT (email_key) DO NOTHING
        RETURNING id, email, name, phone, company, messenger, scope, created_at`);
      if (!row) throw new HttpError(409, EMAIL_TAKEN);
      return toSessionUser(row);
    },

    async login(
      input: { email: string; password: string; remember?: boolean; "g-recaptcha-response"?: string },
      meta: RequestMeta,
    ): Promise<NewSession & { user: SessionUser }> {
      const accountKey = `login:account:${hashToken(emailKey(input.email))}`;
      await limiter.consume(ipKey("login", meta.ip), limits.loginPerIp);
      await limiter.consume(accountKey, limits.loginPerAccount);
      await antibot.verify(input["g-recaptcha-response"], ANTIBOT_ACTIONS.login, meta.ip);
      const [row] = await db.query<UserRow & { password_hash: string }>(sql`
        SELECT id, email, name, phone, company, messenger, scope, created_at, password_hash
        FROM users WHERE email_key = ${emailKey(input.email)}`);
      if (!row) {
        await verifyPassword(await (dummyHash ??= hashPassword(newToken())), input.password);
        throw new HttpError(401, INVALID_CREDENTIALS);
      }
      if (!(await verifyPassword(row.password_hash, input.password))) throw new HttpError(401, INVALID_CREDENTIALS);
      await limiter.reset(accountKey);
      const session = await sessions.create(row.id, input.remember === true, meta);
      return { ...session, user: toSessionUser(row) };
    },

    /** The logged-in user for a session token, or null. */
    userForToken: (token: string | undefined | null) => (token ? sessions.user(token) : Promise.resolve(null)),

    /** Ends one session. Unknown or already revoked tokens are fine: logout always succeeds. */
    async logout(token: string | undefined | null): Promise<void> {
      if (token) await sessions.revoke(token);
    },

    /** Mails a reset link when the address has an account; the caller answers the same either way. */
    async forgotPassword(input: { email: string; "g-recaptcha-response"?: string }, meta: RequestMeta): Promise<void> {
      await limiter.consume(ipKey("forgot", meta.ip), limits.forgotPerIp);
      await limiter.consume(`forgot:account:${hashToken(emailKey(input.email))}`, limits.forgotPerAccount);
      await antibot.verify(input["g-recaptcha-response"], ANTIBOT_ACTIONS.forgotPassword, meta.ip);
      const [user] = await db.query<{ id: number; email: string; name: string }>(
        sql`SELECT id, email, name FROM users WHERE email_key = ${emailKey(input.email)}`,
      );
      if (!user) return;
      const token = newToken();
      await db.transaction(async (tx) => {
        // Only the newest link works.
        await tx.query(sql`UPDATE password_resets SET used_at = now() WHERE user_id = ${user.id} AND used_at IS NULL`);
        await tx.query(sql`
          INSERT INTO password_resets (token_hash, user_id, expires_at)
          VALUES (${hashToken(token)}, ${user.id}, now() + make_interval(secs => ${RESET_TOKEN_SECONDS}))`);
      });
      const link = `${deps.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
      // Without SMTP the link is logged so a newcomer can finish the flow; never in production mail mode.
      if (mail.mode === "file") log.info(`password reset link for ${user.email}: ${link}`);
      // Delivery is not awaited: the answer takes the same time whether or not the account exists.
      void mail
        .send({
          to: user.email,
          subject: "Reset your OfferAtlas password",
          text: [
            `Hello ${user.name},`,
            "",
            "Someone (hopefully you) asked to reset the password of your OfferAtlas account.",
            "Open this link within one hour to choose a new password:",
            "",
            link,
            "",
            "If you did not ask for this, ignore this message: your password stays as it is.",
          ].join("\n"),
        })
        .catch((err: unknown) => log.error(`could not queue the password reset mail: ${err instanceof Error ? err.message : String(err)}`));
    },

    /** Whether a reset link can still be used (GET /api/auth/reset-password). */
    async resetTokenValid(token: string): Promise<boolean> {
      if (!token || token.length > 200) return false;
      const [row] = await db.query<{ id: number }>(sql`
        SELECT id FROM password_resets WHERE token_hash = ${hashToken(token)} AND used_at IS NULL AND expires_at > now()`);
      return Boolean(row);
    },

    /** Sets a new password with a single-use link and ends every session of that account. */
    async resetPassword(input: { token: string; password: string; "g-recaptcha-response"?: string }, meta: RequestMeta): Promise<void> {
      await limiter.consume(ipKey("reset", meta.ip), limits.resetPerIp);
      await antibot.verify(input["g-recaptcha-response"], ANTIBOT_ACTIONS.resetPassword, meta.ip);
      assertAcceptablePassword(input.password);
      if (input.token.length > 200) throw new HttpError(400, INVALID_RESET_LINK);
      const passwordHash = await hashPassword(input.password);
      await db.transaction(async (tx) => {
        const [reset] = await tx.query<{ user_id: number }>(sql`
          UPDATE password_resets SET used_at = now()
          WHERE token_hash = ${hashToken(input.token)} AND used_at IS NULL AND expires_at > now()
          RETURNING user_id`);
        if (!reset) throw new HttpError(400, INVALID_RESET_LINK);
        await tx.query(sql`UPDATE users SET password_hash = ${passwordHash}, updated_at = now() WHERE id = ${reset.user_id}`);
        await sessions.revokeAll(reset.user_id, tx);
      });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
