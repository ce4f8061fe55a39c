// Accounts: the payloads of register, login, forgot and reset password (spec
// §5/§7), shared by the forms and the API, plus the session cookie's name and
// format, which the API and the page actions must agree on.
import { z } from "zod";
import { emailField, messages, optionalText, phoneField, requiredText } from "./validation.ts";

/** Spec §7: cookie prefix "auth.", token prefix "_token.", strategy "local". */
export const AUTH_COOKIE = "auth._token.local";
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** The action names the browser asks the anti-bot provider for (letters and underscores only). */
export const ANTIBOT_ACTIONS = {
  login: "login",
  register: "register",
  forgotPassword: "forgot_password",
  resetPassword: "reset_password",
} as const;
export const ANTIBOT_FIELD = "g-recaptcha-response";

/** What a client may know about the logged-in user (never the password hash). */
export type SessionUser = {
  id: number;
  email: string;
  name: string;
  phone: string | null;
  company: string | null;
  messenger: string | null;
  scope: string[];
  createdAt: string;
};

const password = (field: string) =>
  z
    .string({ error: messages.required(field) })
    .min(1, messages.required(field))
    .min(PASSWORD_MIN_LENGTH, messages.minLength(field, PASSWORD_MIN_LENGTH))
    .max(PASSWORD_MAX_LENGTH, `${field} must be at most ${PASSWORD_MAX_LENGTH} characters long`);

const confirmation = z.string({ error: messages.required("Confirm Password") }).min(1, messages.required("Confirm Password"));

/** Checkbox or JSON boolean: "true"/"on"/true mean yes. */
const flag = z
  .union([z.boolean(), z.string()])
  .optional()
  .transform((v) => v === true || v === "true" || v === "on" || v === "1");

const antibotToken = z.string().max(4096).optional();

const passwordsMatch = <T extends { password: string; confirmPassword: string }>(d: T) => d.password === d.confirmPassword;
const mismatch = { path: ["confirmPassword"], message: messages.confirmPassword() };

export const registerSchema = z
  .object({
    name: requiredText("Name", 100),
    email: emailField("Email"),
    password: password("Password"),
    confirmPassword: confirmation,
    phone: phoneField(),
    company: optionalText("Company", 200),
    messenger: optionalText("Messenger", 200),
    site: z.string().trim().max(60).optional(),
    [ANTIBOT_FIELD]: antibotToken,
  })
  .refine(passwordsMatch, mismatch);
export type RegisterInput = z.infer<typeof registerSchema>;

export const loginSchema = z.object({
  email: emailField("Email"),
  password: z.string({ error: messages.required("Password") }).min(1, messages.required("Password")).max(1024),
  remember: flag,
  [ANTIBOT_FIELD]: antibotToken,
});
export type LoginInput = z.infer<typeof loginSchema>;

export const forgotPasswordSchema = z.object({
  email: emailField("Email"),
  [ANTIBOT_FIELD]: antibotToken,
});

export const resetTokenSchema = z.object({ token: requiredText("Token", 200) });

export const resetPasswordSchema = z
  .object({
    token: requiredText("Token", 200),
    password: password("Password"),
    confirmPassword: confirmation,
    [ANTIBOT_FIELD]: antibotToken,
  })
  .refine(passwordsMatch, mismatch);

/** Reads the session token from a Cookie header (page actions have only the raw header). */
export function readSessionCookie(cookieHeader: string | null | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== AUTH_COOKIE) continue;
    try {
      return stripBearer(decodeURIComponent(part.slice(eq + 1).trim()));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Tokens may arrive as "Bearer abc" (header or a client that stored the header value). */
export function stripBearer(value: string | undefined): string | undefined {
  const v = value?.trim().replace(/^Bearer\s+/i, "");
  return v ? v : undefined;
}

export type SessionCookieOptions = { secure: boolean; maxAgeSeconds?: number };

/** Set-Cookie value: HttpOnly, SameSite=Lax; without maxAge it ends with the browser. */
export function serializeSessionCookie(token: string, options: SessionCookieOptions): string {
  const parts = [`${AUTH_COOKIE}=${encodeURIComponent(token)}`, "Path=/", "HttpOnly", "SameSite=Lax"];
  if (options.maxAgeSeconds !== undefined) {
    parts.push(`Max-Age=${options.maxAgeSeconds}`, `Expires=${new Date(Date.now() + options.maxAgeSeconds * 1000).toUTCString()}`);
  }
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}

export const clearSessionCookie = (secure: boolean) =>
  [`${AUTH_COOKIE}=`, "Path=/", "HttpOnly", "SameSite=Lax", "Max-Age=0", "Expires=Thu, 01 Jan 1970 00:00:00 GMT", ...(secure ? ["Secure"] : [])].join("; ");
