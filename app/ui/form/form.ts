// What every page form's action answers (account, lead and review forms alike):
// accepted or refused, the form-level message, the message per field, and what
// the visitor typed that may be shown again (see echoable in form.server.ts).
export type FormValues = Record<string, string | string[]>;

export type FormResult = {
  ok: boolean;
  /** The confirmation, or the refusal as one sentence. */
  message?: string;
  errors?: Record<string, string>;
  values?: FormValues;
};
