// Anti-bot check (reCAPTCHA v3, docs/product.md §1/§8): the browser obtains a token for a
// named action and the server verifies it with the provider. Without keys the
// check is off, so a fresh checkout works without a Google account.
import { HttpError } from "../errors.ts";

export type AntibotSettings = { siteKey: string; secretKey: string; verifyUrl: string; minScore: number };

export type Antibot = {
  /** True when both keys are configured. */
  readonly enabled: boolean;
  /** The public key the browser loads the script with ("" when off). */
  readonly siteKey: string;
  /** Resolves when the token passes (or the check is off); throws HttpError otherwise. */
  verify(token: string | undefined, action: string, remoteIp?: string): Promise<void>;
};

type VerifyAnswer = { success?: boolean; score?: number; action?: string; "error-codes"?: string[] };

const ANTIBOT_FAILED = "ReCaptcha verification failed, please reload the page and try again";
const VERIFY_TIMEOUT_MS = 5_000;

export function createAntibot(settings: AntibotSettings, fetchImpl: typeof fetch = fetch): Antibot {
  const enabled = Boolean(settings.siteKey && settings.secretKey);
  return {
    enabled,
    siteKey: enabled ? settings.siteKey : "",
    async verify(token, action, remoteIp) {
      if (!enabled) return;
      if (typeof token !== "string" || token.trim() === "" || token.length > 4096)
        throw new HttpError(400, ANTIBOT_FAILED);
      const body = new URLSearchParams({ secret: settings.secretKey, response: token });
      if (remoteIp) body.set("remoteip", remoteIp);
      let answer: VerifyAnswer;
      try {
        const res = await fetchImpl(settings.verifyUrl, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body,
          signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
        });
        if (!res.ok) throw new Error(`verify answered ${res.status}`);
        answer = (await res.json()) as VerifyAnswer;
      } catch {
        // The provider is unreachable: refuse rather than let bots through, but say it is temporary.
        throw new HttpError(503, "ReCaptcha verification is unavailable, please try again in a moment");
      }
      const passed =
        answer.success === true &&
        answer.action === action &&
        typeof answer.score === "number" &&
        answer.score >= settings.minScore;
      if (!passed) throw new HttpError(400, ANTIBOT_FAILED);
    },
  };
}
