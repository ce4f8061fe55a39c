// Password policy: a minimum length (checked by the shared schema) and a refusal
// of the most common passwords (NIST SP 800-63B), from zxcvbn's ranked list.
import { dictionary } from "@zxcvbn-ts/language-common";
import { HttpError } from "../errors.ts";

const COMMON_PASSWORD = "This password is too common, please choose a less predictable one";

let common: Set<string> | undefined;
const commonPasswords = () => (common ??= new Set((dictionary as Record<string, string[]>)["passwords-common"] ?? []));

const isCommonPassword = (password: string) => commonPasswords().has(password.toLowerCase());

export function assertAcceptablePassword(password: string): void {
  if (isCommonPassword(password)) throw new HttpError(400, COMMON_PASSWORD);
}
