// The server half of every page form: read the post, run the form's work, and
// turn a refusal into the answer the form shows. Every failure goes through
// refusalOf (core/errors.ts), as the API's error handler does; what is not a
// refusal, or is a 5xx (database unavailable), is a fault and reaches the error page.
import { data } from "react-router";
import { formValues } from "#contracts/leads.ts";
import { refusalOf } from "#core/errors.ts";
import type { FormResult, FormValues } from "./form";

/** Longest value a refused form shows again: no field takes more, and a page never carries a huge post back. */
const ECHO_MAX = 2000;

/** The values safe to send back into a refused form: only its own fields, never a secret, none oversized. */
function echoable(values: FormValues, fields: ReadonlySet<string>): FormValues {
  const fits = (v: string | string[]) =>
    Array.isArray(v) ? v.every((s) => s.length <= ECHO_MAX) : v.length <= ECHO_MAX;
  return Object.fromEntries(
    Object.entries(values).filter(([k, v]) => fields.has(k) && !/password|token|recaptcha/i.test(k) && fits(v)),
  );
}

export type FormSpec = {
  /** The form's own fields: the only ones ever typed in again. */
  fields: ReadonlySet<string>;
  /** Where a refusal without field errors (a 400 from the service) is shown, if beside a field. */
  refusalField?: string;
};

/** A refused submission as its form shows it; anything else is rethrown. */
function formFailure(err: unknown, posted: FormValues, { fields, refusalField }: FormSpec) {
  const refusal = refusalOf(err);
  if (!refusal || refusal.status >= 500) throw err;
  const { status, message, headers } = refusal;
  const errors =
    refusalField && status === 400 && !Object.keys(refusal.errors).length
      ? { [refusalField]: message }
      : refusal.errors;
  return data<FormResult>({ ok: false, message, errors, values: echoable(posted, fields) }, { status, headers });
}

/**
 * A page form's action: read the post (the server already bounded its size and
 * refused unreadable ones, server/plugins/react-router.ts), do the form's work,
 * answer its result or its refusal.
 */
export async function handleForm<R>(
  request: Request,
  spec: FormSpec,
  work: (values: FormValues, form: FormData) => Promise<R>,
) {
  const form = await request.formData();
  const values = formValues(form);
  try {
    return await work(values, form);
  } catch (err) {
    return formFailure(err, values, spec);
  }
}
