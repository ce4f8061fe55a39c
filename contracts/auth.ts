// Accounts: the payloads of register, login, forgot and reset password (spec
// §5/§7), shared by the forms and the API, and what a client may know of the
// logged-in user. The session cookie is the server's business (core/auth/sessions.ts).
import { z } from "zod";
import { ANTIBOT_FIELD, antibotToken } from "./antibot.ts";
import { emailField, messages, optionalText, phoneField, requiredText } from "./validation.ts";

const PASSWORD_MIN_LENGTH = 8;
const PASSWORD_MAX_LENGTH = 128;

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

const confirmation = z
  .string({ error: messages.required("Confirm Password") })
  .min(1, messages.required("Confirm Password"));

/** Checkbox or JSON boolean: "true"/"on"/true mean yes. */
const flag = z
  .union([z.boolean(), z.string()])
  .optional()
  .transform((v) => v === true || v === "true" || v === "on" || v === "1");

const passwordsMatch = <T extends { password: string; confirmPassword: string }>(d: T) =>
  d.password === d.confirmPassword;
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

export const loginSchema = z.object({
  email: emailField("Email"),
  password: z
    .string({ error: messages.required("Password") })
    .min(1, messages.required("Password"))
    .max(1024),
  remember: flag,
  [ANTIBOT_FIELD]: antibotToken,
});

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
