// A <Form> that, when the anti-bot check is on, first obtains a token for its
// action name and posts it as g-recaptcha-response. Without a site key (or
// without JavaScript) it is a plain React Router form.
import { useEffect, useState, type ComponentProps, type FormEvent } from "react";
import { Form, useRouteLoaderData, useSubmit } from "react-router";
import { ANTIBOT_FIELD } from "#contracts/antibot.ts";
import { useNotify } from "#app/ui/shell/Notifications.tsx";
import { executeRecaptcha, loadRecaptcha } from "./recaptcha-client";

export function useAntibotSiteKey(): string {
  const root = useRouteLoaderData("root") as { antibotSiteKey?: string } | undefined;
  return root?.antibotSiteKey ?? "";
}

type Props = Omit<ComponentProps<typeof Form>, "onSubmit" | "method"> & { antibotAction: string };

export function AntibotForm({ antibotAction, children, ...props }: Props) {
  const siteKey = useAntibotSiteKey();
  const submit = useSubmit();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    // Load early so the first submission does not wait for the script.
    if (siteKey) loadRecaptcha(siteKey).catch((err: Error) => notify({ type: "error", text: err.message }));
  }, [siteKey, notify]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (!siteKey) return; // plain form submission
    event.preventDefault();
    const form = event.currentTarget;
    const submitter = (event.nativeEvent as SubmitEvent).submitter ?? null;
    setBusy(true);
    try {
      const token = await executeRecaptcha(siteKey, antibotAction);
      const formData = new FormData(form, submitter);
      formData.set(ANTIBOT_FIELD, token);
      await submit(formData, { method: "post", action: props.action });
    } catch (err) {
      notify({ type: "error", text: err instanceof Error ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Form method="post" {...props} onSubmit={onSubmit} aria-busy={busy}>
      {children}
      <AntibotNotice />
    </Form>
  );
}

/** The badge is hidden, so the terms say it instead (Google's requirement). */
export function AntibotNotice() {
  const siteKey = useAntibotSiteKey();
  if (!siteKey) return null;
  return (
    <p className="mt-2 text-xs text-slate-500">
      <style>{".grecaptcha-badge{visibility:hidden}"}</style>
      This site is protected by reCAPTCHA and the Google{" "}
      <a className="link" href="https://policies.google.com/privacy" rel="noopener noreferrer" target="_blank">
        Privacy Policy
      </a>{" "}
      and{" "}
      <a className="link" href="https://policies.google.com/terms" rel="noopener noreferrer" target="_blank">
        Terms of Service
      </a>{" "}
      apply.
    </p>
  );
}
