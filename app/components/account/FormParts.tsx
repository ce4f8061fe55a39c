// Building blocks of the account forms: a labelled field with its inline
// error, and the "ERROR" notification for a refused submission (spec §8).
import { useEffect, type InputHTMLAttributes } from "react";
import { useNotify } from "#app/components/shell/Notifications.tsx";
import type { FormResult } from "#app/lib/account-forms.ts";

type FieldProps = InputHTMLAttributes<HTMLInputElement> & { label: string; name: string; error?: string };

export function Field({ label, name, error, ...input }: FieldProps) {
  const id = `f-${name}`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">{label}</label>
      <input id={id} name={name} className="input mt-1" aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined} {...input} />
      {error && <p id={`${id}-error`} className="field-error">{error}</p>}
    </div>
  );
}

/** Shows the failure as an error notification once per submission (JavaScript only). */
export function useFailureNotice(result: FormResult | undefined) {
  const notify = useNotify();
  useEffect(() => {
    if (result && !result.ok && result.message) notify({ type: "error", text: result.message });
  }, [result, notify]);
}

/** The same message in the page itself, for visitors without JavaScript. */
export function FormAlert({ result }: { result: FormResult | undefined }) {
  if (!result || result.ok || !result.message) return null;
  return <p role="alert" className="rounded border border-red-300 bg-red-50 p-2 text-sm text-red-800">{result.message}</p>;
}
