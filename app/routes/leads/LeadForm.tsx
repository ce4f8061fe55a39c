// A lead form: validates every field in the browser with the same zod schema
// and docs/product.md §5 messages the server uses (loaded once the visitor starts
// on the form, so zod is not part of the page: docs/decisions/0033), gets an anti-bot token when the check
// is on, and posts to the page's action. Without JavaScript it is a plain
// form post and the server's answer re-renders the page with the errors and
// the typed values.
import { useState, type FormEvent, type ReactNode } from "react";
import { Form, useNavigation, useSubmit } from "react-router";
import type { z } from "zod";
import { ANTIBOT_FIELD } from "#contracts/antibot.ts";
import { formValues } from "#contracts/leads.ts";
import { AntibotNotice, useAntibotSiteKey } from "#app/ui/antibot/AntibotForm.tsx";
import { executeRecaptcha } from "#app/ui/antibot/recaptcha-client.ts";
import { ErrorSummary, Fields } from "#app/ui/form/Fields.tsx";
import type { FormResult } from "#app/ui/form/form.ts";
import { useNotify } from "#app/ui/shell/Notifications.tsx";

// The field messages say what is wrong, and the summary lists them; a refusal
// that belongs to no field (rate limit, anti-bot) is the summary itself.
const noticeOf = (result: FormResult | undefined) =>
  result && !result.ok && !Object.keys(result.errors ?? {}).length ? result.message : undefined;

type Props = {
  action: string;
  antibotAction: string;
  /** The form's schema, imported lazily: called when the form is first focused and on submit. */
  schema: () => Promise<z.ZodType>;
  result: FormResult | undefined;
  multipart?: boolean;
  /** Extra checks that need the browser (a file's pixels); field name → message. */
  checkFiles?: (form: FormData) => Promise<Record<string, string>>;
  submitLabel: string;
  children: ReactNode;
};

export function LeadForm({
  action,
  antibotAction,
  schema,
  result,
  multipart,
  checkFiles,
  submitLabel,
  children,
}: Props) {
  const submit = useSubmit();
  const notify = useNotify();
  const siteKey = useAntibotSiteKey();
  const navigation = useNavigation();
  const [errors, setErrors] = useState<Record<string, string>>(result?.errors ?? {});
  const [notice, setNotice] = useState<string | undefined>(noticeOf(result));
  const [checking, setChecking] = useState(false);
  const busy = checking || navigation.state === "submitting";

  // A new answer from the server replaces what the browser found (adjusted during render, not in an effect).
  const [shown, setShown] = useState(result);
  if (result !== shown) {
    setShown(result);
    setErrors(result?.errors ?? {});
    setNotice(noticeOf(result));
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setChecking(true);
    try {
      const [rules, { fieldErrors }] = await Promise.all([schema(), import("#contracts/validation.ts")]);
      const parsed = rules.safeParse(formValues(data, [ANTIBOT_FIELD]));
      const found = parsed.success ? {} : fieldErrors(parsed.error);
      if (checkFiles) for (const [k, v] of Object.entries(await checkFiles(data))) found[k] ??= v;
      setErrors(found);
      setNotice(undefined);
      if (Object.keys(found).length) return;
      if (siteKey) data.set(ANTIBOT_FIELD, await executeRecaptcha(siteKey, antibotAction));
      await submit(data, {
        method: "post",
        action,
        encType: multipart ? "multipart/form-data" : "application/x-www-form-urlencoded",
      });
    } catch (err) {
      // The anti-bot check failed (docs/product.md §8): said in the form and notified.
      const message = err instanceof Error ? err.message : String(err);
      setNotice(message);
      notify({ type: "error", text: message });
    } finally {
      setChecking(false);
    }
  }

  return (
    <Fields errors={errors} values={result?.values} markRequired>
      <Form
        method="post"
        action={action}
        encType={multipart ? "multipart/form-data" : undefined}
        noValidate
        onSubmit={onSubmit}
        // Fetch the rules while the visitor types, not when they press Send (a failed load is retried on submit).
        onFocus={() => void schema().catch(() => undefined)}
        aria-busy={busy}
        className="card space-y-4"
      >
        <ErrorSummary errors={errors} notice={notice} />
        {children}
        <div className="flex items-center gap-3">
          <button type="submit" className="btn-primary" disabled={busy}>
            {busy ? "Sending…" : submitLabel}
          </button>
          <span className="text-xs text-slate-500">Fields marked * are required.</span>
        </div>
        <AntibotNotice />
      </Form>
    </Fields>
  );
}
