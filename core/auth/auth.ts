// Accounts: registration, login and logout, and password reset by mail. Every
// entry point is rate limited per IP (and per account where one is named) and,
// when configured, checked by the anti-bot verifier. Answers never reveal
// whether an address has an account, except the 409 the spec asks of register.
import { setTimeout as sleepMs } from "node:timers/promises";
import { sql, array, type Database, type SQL } from "#db/client.ts";
import type { SessionUser } from "#contracts/auth.ts";
import { ANTIBOT_ACTIONS, ANTIBOT_FIELD, type WithAntibotToken } from "#contracts/antibot.ts";
import type { Antibot } from "../antibot/recaptcha.ts";
import { HttpError } from "../errors.ts";
import type { Mailer, MailLog } from "../mail/mailer.ts";
import type { RateLimiter, RateRule } from "../rate-limit/limiter.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { assertAcceptablePassword } from "./password-policy.ts";
import {
  createSessionStore,
  readSessionCookie,
  sessionCookie,
  toSessionUser,
  type NewSession,
  type UserRow,
} from "./sessions.ts";
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
  loginBackoff?: Partial<typeof LOGIN_BACKOFF>;
  /** How a login waits out its backoff (tests record it instead). */
  sleep?: (ms: number) => Promise<unknown>;
};

export const DEFAULT_LIMITS = {
  // Login limits count failed logins (see login below).
  loginFailuresPerPair: { limit: 5, windowSeconds: 15 * 60 },
  loginFailuresPerIp: { limit: 30, windowSeconds: 15 * 60 },
  loginFailuresPerAccount: { limit: 10, windowSeconds: 15 * 60 },
  registerPerIp: { limit: 10, windowSeconds: 60 * 60 },
  forgotPerIp: { limit: 10, windowSeconds: 60 * 60 },
  forgotPerAccount: { limit: 3, windowSeconds: 60 * 60 },
  resetPerIp: { limit: 20, windowSeconds: 60 * 60 },
} satisfies Record<string, RateRule>;

/** The wait before verifying, once an account is past its failure threshold: base × 2^(failures − threshold), at most max. */
export const LOGIN_BACKOFF = { baseMs: 100, maxMs: 3000 };

export function loginDelayMs(failures: number, threshold: number, backoff = LOGIN_BACKOFF): number {
  return failures < threshold ? 0 : Math.min(backoff.maxMs, backoff.baseMs * 2 ** (failures - threshold));
}

const RESET_TOKEN_SECONDS = 3600;
export const INVALID_CREDENTIALS = "Invalid email or password";
const EMAIL_TAKEN = "An account with this email address already exists";
export const INVALID_RESET_LINK = "This password reset link is invalid or has expired";
export const NOT_LOGGED_IN = "You must be logged in";

type RegisterFields = {
  email: string;
  password: string;
  name: string;
  phone?: string;
  company?: string;
  messenger?: string;
} & WithAntibotToken;

const emailKey = (email: string) => email.trim().toLowerCase();

export function createAuthService(deps: AuthDeps) {
  const { db, limiter, mail, antibot, log } = deps;
  const limits = { ...DEFAULT_LIMITS, ...deps.limits };
  const backoff = { ...LOGIN_BACKOFF, ...deps.loginBackoff };
  const sleep = deps.sleep ?? ((ms: number) => sleepMs(ms));
  const sessions = createSessionStore(db, deps.ipHashSalt);
  // Unknown emails still pay for one argon2 verification, so timing does not tell accounts apart.
  let dummyHash: Promise<string> | undefined;
  const ipKey = (scope: string, ip: string) => `${scope}:ip:${hashIp(ip, deps.ipHashSalt)}`;

  return {
    sessions,
    /** The Set-Cookie value for a new session, or (null) the one that ends it. */
    sessionCookie,
    /** The session token in a raw Cookie header. */
    readSessionCookie,

    async register(siteId: string, input: RegisterFields, meta?: RequestMeta): Promise<SessionUser> {
      if (meta) await limiter.consume(ipKey("register", meta.ip), limits.registerPerIp);
      await antibot.verify(input[ANTIBOT_FIELD], ANTIBOT_ACTIONS.register, meta?.ip);
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

    /*
     * Login throttling counts failures, not attempts, so nobody can lock anyone else out:
     * - one address on one account: 5 failures in 15 min → 429 (Retry-After) for that address on that account;
     * - one address on any accounts: 30 failures in 15 min → 429 for that address;
     * - one account from any addresses: past 10 failures in 15 min, every attempt first waits
     *   100 ms × 2^(failures − 10), at most 3 s, and is never refused; so the owner, from an address
     *   that has not failed, still gets in (the anti-bot check, when configured, guards every login).
     * (Numbers: DEFAULT_LIMITS and LOGIN_BACKOFF.) Each attempt is counted up front, one atomic upsert
     * per counter, so parallel guesses cannot slip under a limit; a success takes back its own count
     * (the address's and the account's drop by one) and clears the pair's failures. Unknown accounts
     * take exactly the same path.
     */
    async login(
      input: { email: string; password: string; remember?: boolean } & WithAntibotToken,
      meta: RequestMeta,
    ): Promise<NewSession & { user: SessionUser }> {
      const account = emailKey(input.email);
      const pairKey = `login:fail:pair:${hashIp(`${account}\n${meta.ip}`, deps.ipHashSalt)}`;
      const ipFailKey = ipKey("login:fail", meta.ip);
      const accountKey = `login:fail:account:${hashIp(account, deps.ipHashSalt)}`;
      await limiter.consume(pairKey, limits.loginFailuresPerPair);
      await limiter.consume(ipFailKey, limits.loginFailuresPerIp);
      await antibot.verify(input[ANTIBOT_FIELD], ANTIBOT_ACTIONS.login, meta.ip);
      const { limit, windowSeconds } = limits.loginFailuresPerAccount;
      const { hits } = await limiter.hit(accountKey, limit, windowSeconds);
      const delay = loginDelayMs(hits - 1, limit, backoff);
      if (delay > 0) await sleep(delay);
      const [row] = await db.query<UserRow & { password_hash: string }>(sql`
        SELECT id, email, name, phone, company, messenger, scope, created_at, password_hash
        FROM users WHERE email_key = ${account}`);
      if (!row) {
        await verifyPassword(await (dummyHash ??= hashPassword(newToken())), input.password);
        throw new HttpError(401, INVALID_CREDENTIALS);
      }
      if (!(await verifyPassword(row.password_hash, input.password))) throw new HttpError(401, INVALID_CREDENTIALS);
      await Promise.all([limiter.reset(pairKey), limiter.forgive(ipFailKey), limiter.forgive(accountKey)]);
      const session = await sessions.create(row.id, input.remember === true, meta);
      return { ...session, user: toSessionUser(row) };
    },

    /** The logged-in user for a session token, or null. */
    userForToken: (token: string | undefined | null) => (token ? sessions.user(token) : Promise.resolve(null)),
    /** The session's user and `also`, an expression over the user's id `u.id`, in one statement. */
    userForTokenWith: <T>(token: string | undefined | null, also: SQL) =>
      token ? sessions.userWith<T>(token, also) : Promise.resolve(null),

    /** Ends one session. Unknown or already revoked tokens are fine: logout always succeeds. */
    async logout(token: string | undefined | null): Promise<void> {
      if (token) await sessions.revoke(token);
    },

    /** Mails a reset link when the address has an account; the caller answers the same either way. */
    async forgotPassword(input: { email: string } & WithAntibotToken, meta: RequestMeta): Promise<void> {
      await limiter.consume(ipKey("forgot", meta.ip), limits.forgotPerIp);
      await limiter.consume(`forgot:account:${hashToken(emailKey(input.email))}`, limits.forgotPerAccount);
      await antibot.verify(input[ANTIBOT_FIELD], ANTIBOT_ACTIONS.forgotPassword, meta.ip);
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
      // The link is a working credential: it goes into the mail only, never into a log line.
      // Without SMTP a newcomer finds the mail (and the link) in the file outbox.
      if (mail.mode === "file")
        log.info(
          `password reset mail for account #${user.id} goes to the file outbox ${mail.outboxDir} (SMTP_URL is not set)`,
        );
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
        .catch((err: unknown) =>
          log.error(`could not queue the password reset mail: ${err instanceof Error ? err.message : String(err)}`),
        );
    },

    /** Whether a reset link can still be used (GET /api/auth/reset-password). */
    async resetTokenValid(token: string): Promise<boolean> {
      if (!token || token.length > 200) return false;
      const [row] = await db.query<{ id: number }>(sql`
        SELECT id FROM password_resets WHERE token_hash = ${hashToken(token)} AND used_at IS NULL AND expires_at > now()`);
      return Boolean(row);
    },

    /** Sets a new password with a single-use link and ends every session of that account. */
    async resetPassword(
      input: { token: string; password: string } & WithAntibotToken,
      meta: RequestMeta,
    ): Promise<void> {
      await limiter.consume(ipKey("reset", meta.ip), limits.resetPerIp);
      await antibot.verify(input[ANTIBOT_FIELD], ANTIBOT_ACTIONS.resetPassword, meta.ip);
      assertAcceptablePassword(input.password);
      if (input.token.length > 200) throw new HttpError(400, INVALID_RESET_LINK);
      const passwordHash = await hashPassword(input.password);
      await db.transaction(async (tx) => {
        const [reset] = await tx.query<{ user_id: number }>(sql`
          UPDATE password_resets SET used_at = now()
          WHERE token_hash = ${hashToken(input.token)} AND used_at IS NULL AND expires_at > now()
          RETURNING user_id`);
        if (!reset) throw new HttpError(400, INVALID_RESET_LINK);
        await tx.query(
          sql`UPDATE users SET password_hash = ${passwordHash}, updated_at = now() WHERE id = ${reset.user_id}`,
        );
        await sessions.revokeAll(reset.user_id, tx);
      });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
