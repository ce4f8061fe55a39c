// One action form of a console page. A page may hold several (approve, reject,
// mark as duplicate; hide on each row of a queue); each posts its `intent` and
// record `id`, and only the form the answer names shows the answer's messages.
import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { Fields, FormAlert, useSettledActionData } from "#app/ui/form/Fields.tsx";
import type { FormValues } from "#app/ui/form/form.ts";

export function ConsoleForm({
  intent,
  recordId,
  submitLabel,
  tone = "primary",
  children,
  hidden,
  defaults,
}: {
  intent: string;
  /** The record this form acts on, where a page lists several. */
  recordId?: string | number;
  submitLabel: string;
  tone?: "primary" | "danger" | "plain";
  children?: ReactNode;
  /** Values the form posts unseen (the record's updatedAt). */
  hidden?: Record<string, string | number>;
  /** What the fields show until a refusal refills what was typed (the record's saved values). */
  defaults?: FormValues;
}) {
  const result = useSettledActionData();
  const navigation = useNavigation();
  const id = recordId === undefined ? undefined : String(recordId);
  const names = (values: { get(name: string): unknown } | undefined) =>
    values?.get("intent") === intent && (id === undefined || values.get("id") === id);
  const mine = result && names(new Map(Object.entries(result.values ?? {}))) ? result : undefined;
  const busy = navigation.state === "submitting" && names(navigation.formData);
  const button =
    tone === "danger"
      ? "rounded bg-red-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-800"
      : tone === "plain"
        ? "rounded border border-slate-300 bg-white px-3 py-1.5 text-sm hover:border-brand-500"
        : "btn-primary";
  return (
    <Form method="post" className="space-y-3" data-intent={intent}>
      <input type="hidden" name="intent" value={intent} />
      {id !== undefined && <input type="hidden" name="id" value={id} />}
      {Object.entries(hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Fields
        errors={mine?.errors}
        values={mine && !mine.ok ? mine.values : defaults}
        idPrefix={id === undefined ? intent : `${intent}-${id}`}
      >
        {children}
        {/* A refusal is the form's error summary (every field's message, focused); a success a status line. */}
        <FormAlert result={mine} testId={`${intent}-result`} />
      </Fields>
      {mine?.ok && mine.message && (
        <p role="status" className="text-sm text-green-800" data-testid={`${intent}-result`} data-record-id={id}>
          {mine.message}
        </p>
      )}
      <button type="submit" className={button} disabled={busy}>
        {submitLabel}
      </button>
    </Form>
  );
}

/**
 * The last action's confirmation at the top of a list page, for decisions that
 * take their row out of the list (a hidden review leaves the reported queue).
 */
export function ActionNotice() {
  const result = useSettledActionData();
  if (!result?.ok || !result.message) return null;
  return (
    <p
      role="status"
      className="mb-3 rounded border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900"
      data-testid="action-notice"
    >
      {result.message}
    </p>
  );
}
