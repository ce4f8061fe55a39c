// The console's guard for pages and page actions: the same rule as /api/admin,
// checked on the server by every loader and action (loaders run in parallel, so
// the layout's check alone guards nothing): 401 without a session, 403 without the role.
import { data, type RouterContextProvider } from "react-router";
import { requestContext } from "#app/context.ts";
import type { ZodSafeParseResult } from "zod";
import { FORBIDDEN, hasRole, type Role } from "#contracts/roles.ts";
import { firstIssueMessage } from "#contracts/validation.ts";
import { badRequest, refusalOf } from "#core/errors.ts";
import { handleForm } from "#app/ui/form/form.server.ts";
import type { FormResult, FormValues } from "#app/ui/form/form.ts";

/** What a console page says to a visitor who is not signed in (401). */
export const SIGN_IN_FIRST = "Log in with a staff account to open the console";

/**
 * The signed-in staff member holding `role` (an admin holds every role), with the
 * request's services and site; throws the 401 or 403 page otherwise.
 */
export function requireStaff({ context }: { context: Readonly<RouterContextProvider> }, role: Role = "admin") {
  const { user, services, site } = context.get(requestContext);
  if (!user) throw data(null, { status: 401, statusText: SIGN_IN_FIRST });
  if (!hasRole(user, role)) throw data(null, { status: 403, statusText: FORBIDDEN });
  return { user, services, site };
}

/**
 * A console page's URL parameters read through the list's own schema; a value
 * the schema refuses answers the 400 page with its message (never a 500).
 */
export function queryOf<T>(request: Request, schema: { safeParse(v: unknown): ZodSafeParseResult<T> }): T {
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = schema.safeParse(query);
  if (!parsed.success) throw data(null, { status: 400, statusText: firstIssueMessage(parsed.error) });
  return parsed.data;
}

type Staff = ReturnType<typeof requireStaff>;

/**
 * A console page's action: the role checked first, then the posted `intent`
 * picks the work (and `id` the record, on pages listing several); its answer is
 * the confirmation shown beside that form, and a refusal (validation, 404, 409
 * stale) comes back as that form's messages.
 */
export async function consoleAction(
  args: { request: Request; context: Readonly<RouterContextProvider> },
  role: Role,
  fields: readonly string[],
  intents: Record<string, (values: FormValues, staff: Staff) => Promise<string>>,
) {
  const staff = requireStaff(args, role);
  return handleForm(args.request, { fields: new Set([...fields, "intent", "id"]) }, async (values) => {
    const intent = typeof values.intent === "string" ? values.intent : "";
    const work = Object.hasOwn(intents, intent) ? intents[intent] : undefined;
    if (!work) throw badRequest("This action is not available here");
    const message = await work(values, staff);
    const echoed: FormValues = { intent };
    if (typeof values.id === "string") echoed.id = values.id;
    return { ok: true, message, values: echoed } satisfies FormResult;
  });
}

/**
 * A console loader's work, whose refusal (an unknown id: 404, a bad value: 400)
 * becomes that error page with its message instead of a 500.
 */
export async function refusedAsPage<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    const refusal = refusalOf(err);
    if (!refusal || refusal.status >= 500) throw err;
    throw data(null, { status: refusal.status, statusText: refusal.message });
  }
}
