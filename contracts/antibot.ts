// The anti-bot check's names, which the browser (asking for a token) and the
// server (verifying it) must agree on.
import { z } from "zod";

/** The form field (and JSON key) that carries the token. */
export const ANTIBOT_FIELD = "g-recaptcha-response";

/** The action each form asks a token for (letters and underscores only); the provider checks the token was made for it. */
export const ANTIBOT_ACTIONS = {
  login: "login",
  register: "register",
  forgotPassword: "forgot_password",
  resetPassword: "reset_password",
  review: "review",
} as const;

export const antibotToken = z.string().max(4096).optional();

/** What a payload checked by the anti-bot provider carries besides its own fields. */
export type WithAntibotToken = { [ANTIBOT_FIELD]?: string };
