// What the account forms' actions share: the fields a refused form may show
// again (passwords and tokens never are), and who is asking, for the audit and throttling.
import type { FormSpec } from "#app/ui/form/form.server.ts";

const ACCOUNT_FIELDS: ReadonlySet<string> = new Set([
  "email",
  "name",
  "phone",
  "company",
  "messenger",
  "remember",
  "redirectTo",
]);

/** An account form; a refusal without field errors shows beside `refusalField` when given. */
export const accountForm = (refusalField?: string): FormSpec => ({ fields: ACCOUNT_FIELDS, refusalField });

export const visitor = (request: Request, clientIp: string) => ({
  ip: clientIp,
  userAgent: request.headers.get("user-agent") ?? undefined,
});
