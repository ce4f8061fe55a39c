// The one field kit of every page form: labelled controls that show their
// message beside them and refill what the visitor typed after a server-side
// refusal (no JavaScript), and the refusal shown for the whole form.
import { createContext, useContext, useEffect, useRef, type InputHTMLAttributes, type ReactNode } from "react";
import { useActionData, useNavigation } from "react-router";
import { useNotify } from "#app/ui/shell/Notifications.tsx";
import type { FormResult, FormValues } from "./form";

type FieldState = { errors: Record<string, string>; values: FormValues; markRequired: boolean; idPrefix: string };
// "lf": labelled field.
const FieldContext = createContext<FieldState>({ errors: {}, values: {}, markRequired: false, idPrefix: "lf" });

/**
 * Gives the fields inside their messages and typed values; `markRequired` stars
 * the required ones; `idPrefix` keeps ids unique where a page repeats a form.
 */
export function Fields({
  errors,
  values,
  markRequired = false,
  idPrefix = "lf",
  children,
}: {
  errors?: Record<string, string>;
  values?: FormValues;
  markRequired?: boolean;
  idPrefix?: string;
  children: ReactNode;
}) {
  return (
    <FieldContext.Provider value={{ errors: errors ?? {}, values: values ?? {}, markRequired, idPrefix }}>
      {children}
    </FieldContext.Provider>
  );
}

/** A field's id within its form's prefix. */
function useIdOf() {
  const { idPrefix } = useContext(FieldContext);
  return (name: string) => `${idPrefix}-${name}`;
}

function useField(name: string) {
  const { errors, values } = useContext(FieldContext);
  const raw = values[name];
  return { error: errors[name], value: Array.isArray(raw) ? raw : raw === undefined ? undefined : String(raw) };
}

function RequiredMark({ required }: { required?: boolean }) {
  const { markRequired } = useContext(FieldContext);
  return required && markRequired ? (
    <span aria-hidden="true" className="text-red-700">
      {" "}
      *
    </span>
  ) : null;
}

function Label({ name, label, required }: { name: string; label: string; required?: boolean }) {
  const idOf = useIdOf();
  return (
    <label htmlFor={idOf(name)} className="block text-sm font-medium text-slate-700">
      {label}
      <RequiredMark required={required} />
    </label>
  );
}

function Help({ name, hint, error }: { name: string; hint?: ReactNode; error?: string }) {
  const idOf = useIdOf();
  return (
    <>
      {hint && (
        <p id={`${idOf(name)}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${idOf(name)}-error`} className="field-error" data-field-error={name}>
          {error}
        </p>
      )}
    </>
  );
}

const describedBy = (idOf: (name: string) => string, name: string, hint: unknown, error: unknown) =>
  [hint ? `${idOf(name)}-hint` : "", error ? `${idOf(name)}-error` : ""].filter(Boolean).join(" ") || undefined;

/** What every labelled control takes. */
type ControlProps = { name: string; label: string; hint?: ReactNode; required?: boolean };

/** A control's attributes: its own ones (`own`) between its name and the aria ones. */
type Attributes = <Own extends object>(
  own: Own,
) => Own & { id: string; name: string; "aria-invalid": true | undefined; "aria-describedby": string | undefined };

/** One labelled control: the label, the control `children` draws from its attributes and typed value, then hint and message. */
function Control({
  name,
  label,
  hint,
  required,
  children,
}: ControlProps & { children: (attributes: Attributes, value: string | string[] | undefined) => ReactNode }) {
  const { error, value } = useField(name);
  const idOf = useIdOf();
  const attributes: Attributes = (own) => ({
    id: idOf(name),
    name,
    ...own,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy(idOf, name, hint, error),
  });
  return (
    <div>
      <Label name={name} label={label} required={required} />
      {children(attributes, value)}
      <Help name={name} hint={hint} error={error} />
    </div>
  );
}

const typed = (value: string | string[] | undefined) => (typeof value === "string" ? value : undefined);

type TextProps = Omit<InputHTMLAttributes<HTMLInputElement>, "name"> & ControlProps;

/** A text input; a password is never refilled (the server never sends one back). */
export function TextField({ name, label, hint, required, ...input }: TextProps) {
  return (
    <Control name={name} label={label} hint={hint} required={required}>
      {(attributes, value) => (
        <input {...attributes({ className: "input mt-1", required, defaultValue: typed(value) })} {...input} />
      )}
    </Control>
  );
}

export function TextArea({ rows = 5, maxLength, ...field }: ControlProps & { rows?: number; maxLength?: number }) {
  return (
    <Control {...field}>
      {(attributes, value) => (
        <textarea
          {...attributes({
            rows,
            maxLength,
            className: "input mt-1",
            required: field.required,
            defaultValue: typed(value),
          })}
        />
      )}
    </Control>
  );
}

export function SelectField({
  options,
  placeholder,
  ...field
}: Omit<ControlProps, "hint"> & {
  /** Each option's text, also its value, or a value with its label (a country's code and name). */
  options: readonly (string | { value: string; label: string })[];
  placeholder: string;
}) {
  return (
    <Control {...field}>
      {(attributes, value) => (
        <select
          {...attributes({ className: "input mt-1", required: field.required, defaultValue: typed(value) ?? "" })}
        >
          <option value="">{placeholder}</option>
          {options.map((o) => {
            const { value, label } = typeof o === "string" ? { value: o, label: o } : o;
            return (
              <option key={value} value={value}>
                {label}
              </option>
            );
          })}
        </select>
      )}
    </Control>
  );
}

/** Several choices of one field: a group of checkboxes sharing the name. */
export function CheckboxGroup({
  name,
  label,
  options,
  required,
  columns = 3,
}: {
  name: string;
  label: string;
  options: readonly string[];
  required?: boolean;
  columns?: 2 | 3 | 4;
}) {
  const { error, value } = useField(name);
  const idOf = useIdOf();
  const chosen = new Set(Array.isArray(value) ? value : value ? [value] : []);
  const grid = columns === 2 ? "sm:grid-cols-2" : columns === 4 ? "sm:grid-cols-4" : "sm:grid-cols-3";
  return (
    <fieldset aria-describedby={describedBy(idOf, name, undefined, error)}>
      <legend className="text-sm font-medium text-slate-700">
        {label}
        <RequiredMark required={required} />
      </legend>
      <div className={`mt-1 grid grid-cols-1 gap-x-4 gap-y-1 ${grid}`}>
        {options.map((o, i) => (
          <label key={o} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              name={name}
              value={o}
              defaultChecked={chosen.has(o)}
              id={i === 0 ? idOf(name) : undefined}
              className="h-4 w-4 rounded border-slate-300"
            />
            {o}
          </label>
        ))}
      </div>
      <Help name={name} error={error} />
    </fieldset>
  );
}

export function FileField({ accept, ...field }: ControlProps & { accept: string }) {
  return (
    <Control {...field}>
      {(attributes) => (
        <input
          {...attributes({
            type: "file",
            accept,
            required: field.required,
            className:
              "mt-1 block w-full text-sm file:mr-3 file:rounded file:border-0 file:bg-brand-50 file:px-3 file:py-1.5 file:text-brand-700",
          })}
        />
      )}
    </Control>
  );
}

/** The action's answer to the page's form and whether one is on its way; a refusal is also notified (JavaScript only). */
/**
 * The last action's answer once the page's data has been reloaded after it. The router
 * hands the answer over when it starts revalidating, and "Deleted" beside the list that
 * still shows the row (or "Approved" beside "Status: new") would contradict itself.
 */
export function useSettledActionData(): FormResult | undefined {
  const result = useActionData<FormResult>();
  return useNavigation().state === "idle" ? result : undefined;
}

export function useFormResult() {
  const result = useSettledActionData();
  const busy = useNavigation().state === "submitting";
  const notify = useNotify();
  useEffect(() => {
    if (result && !result.ok && result.message) notify({ type: "error", text: result.message });
  }, [result, notify]);
  return { result, busy };
}

// One object, so a re-render is not a new refusal (the summary takes focus on each).
const NO_ERRORS: Record<string, string> = {};

/** What a summary says above its list: how many fields need attention. */
const correctionOf = (count: number) =>
  count === 1 ? "Please correct the highlighted field." : `Please correct the ${count} highlighted fields.`;

/**
 * A refused form's summary at its top: the refusal, or every field's message as a link
 * to its field (each message stays beside its field too). It takes focus when a refusal
 * arrives, so a screen reader reads it first and Tab goes on into the form.
 */
export function ErrorSummary({
  errors,
  notice,
  testId = "form-alert",
}: {
  errors: Record<string, string>;
  notice?: string;
  testId?: string;
}) {
  const idOf = useIdOf();
  const box = useRef<HTMLDivElement>(null);
  const fields = Object.entries(errors);
  const shown = Boolean(notice || fields.length);
  useEffect(() => {
    if (shown) box.current?.focus();
  }, [errors, notice, shown]);
  if (!shown) return null;
  return (
    <div
      ref={box}
      tabIndex={-1}
      role="alert"
      data-testid={testId}
      className="rounded border border-red-300 bg-red-50 p-2 text-sm text-red-800 outline-none focus-visible:ring-2 focus-visible:ring-red-400"
    >
      {notice ?? correctionOf(fields.length)}
      {!notice && (
        <ul className="mt-1 list-disc pl-5">
          {fields.map(([name, message]) =>
            // "_form": a message about the whole form, with no field to go to.
            name === "_form" ? (
              <li key={name}>{message}</li>
            ) : (
              <li key={name}>
                <a
                  href={`#${idOf(name)}`}
                  className="inline-block py-1 underline"
                  onClick={(e) => {
                    const field = document.getElementById(idOf(name));
                    if (!field) return;
                    // Into the field itself, not only scrolled to it (a fragment link only scrolls).
                    e.preventDefault();
                    field.focus();
                  }}
                >
                  {message}
                </a>
              </li>
            ),
          )}
        </ul>
      )}
    </div>
  );
}

/**
 * A page form's refusal in the page itself (with or without JavaScript): the summary of
 * its field messages, or the refusal that belongs to no field. Inside `Fields` when the
 * form gives its fields an `idPrefix`.
 */
export function FormAlert({ result, testId }: { result: FormResult | undefined; testId?: string }) {
  if (!result || result.ok) return null;
  const errors = result.errors ?? NO_ERRORS;
  return (
    <ErrorSummary errors={errors} notice={Object.keys(errors).length ? undefined : result.message} testId={testId} />
  );
}
