// Browser side of the anti-bot check (reCAPTCHA v3, docs/product.md §1/§8): the script is
// loaded once, and only when a site key is configured; each form submission
// asks it for a token for the form's action name.
const RECAPTCHA_VERSION = 3;

/** The visitor sees these words in the error notification. */
const failure = (what: "No key provided" | "No version provided" | "Failed to load script" | "Failed to execute") =>
  new Error(`ReCaptcha error: ${what}`);

type Grecaptcha = {
  ready(cb: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
};
declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

let loading: Promise<Grecaptcha> | undefined;

export function loadRecaptcha(siteKey: string, version: number | undefined = RECAPTCHA_VERSION): Promise<Grecaptcha> {
  if (!siteKey) return Promise.reject(failure("No key provided"));
  if (!version) return Promise.reject(failure("No version provided"));
  loading ??= new Promise<Grecaptcha>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`;
    script.async = true;
    script.onload = () => {
      const g = window.grecaptcha;
      if (!g) return reject(failure("Failed to load script"));
      g.ready(() => resolve(g));
    };
    script.onerror = () => reject(failure("Failed to load script"));
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
    throw failure("Failed to execute");
  }
}
