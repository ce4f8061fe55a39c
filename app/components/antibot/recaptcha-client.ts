// Browser side of the anti-bot check (reCAPTCHA v3, spec §1/§8): the script is
// loaded once, and only when a site key is configured; each form submission
// asks it for a token for the form's action name.
export const RECAPTCHA_VERSION = 3;

export const RECAPTCHA_ERRORS = {
  noKey: "ReCaptcha error: No key provided",
  noVersion: "ReCaptcha error: No version provided",
  loadFailed: "ReCaptcha error: Failed to load script",
  executeFailed: "ReCaptcha error: Failed to execute",
} as const;

type Grecaptcha = { ready(cb: () => void): void; execute(siteKey: string, options: { action: string }): Promise<string> };
declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

let loading: Promise<Grecaptcha> | undefined;

export function loadRecaptcha(siteKey: string, version: number | undefined = RECAPTCHA_VERSION): Promise<Grecaptcha> {
  if (!siteKey) return Promise.reject(new Error(RECAPTCHA_ERRORS.noKey));
  if (!version) return Promise.reject(new Error(RECAPTCHA_ERRORS.noVersion));
  loading ??= new Promise<Grecaptcha>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`;
    script.async = true;
    script.onload = () => {
      const g = window.grecaptcha;
      if (!g) return reject(new Error(RECAPTCHA_ERRORS.loadFailed));
      g.ready(() => resolve(g));
    };
    script.onerror = () => reject(new Error(RECAPTCHA_ERRORS.loadFailed));
    document.head.appendChild(script);
  }).catch((err: unknown) => {
    loading = undefined; // let a later submission try again
    throw err;
  });
  return loading;
}

export async function executeRecaptcha(siteKey: string, action: string): Promise<string> {
  const g = await loadRecaptcha(siteKey);
  try {
    const token = await g.execute(siteKey, { action });
    if (!token) throw new Error("empty token");
    return token;
  } catch {
    throw new Error(RECAPTCHA_ERRORS.executeFailed);
  }
}
