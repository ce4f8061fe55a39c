// Server side of the lead forms' page actions: read the post (with a cap, so a
// huge upload cannot fill memory), and turn a refusal from the lead service
// into field errors that keep what the visitor typed.
import { data, type RouterContextProvider } from "react-router";
import { requestContext, type RequestContext } from "#app/context.ts";
import type { z } from "zod";
import { formValues, LOGO_MESSAGES } from "#contracts/leads.ts";
import { fieldErrors } from "#contracts/validation.ts";
import type { LeadFormResult, LeadFormValues } from "./lead-form";

/** Form posts larger than this are refused before parsing (the logo limit is far below). */
export const MAX_FORM_BYTES = 5 * 1024 * 1024;

export type ReadForm = { values: LeadFormValues; form: FormData | null; tooLarge: boolean };

export async function readLeadForm(request: Request): Promise<ReadForm> {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MAX_FORM_BYTES || !request.body) return { values: {}, form: null, tooLarge: declared > MAX_FORM_BYTES };
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_FORM_BYTES) {
      await reader.cancel();
      return { values: {}, form: null, tooLarge: true };
    }
    chunks.push(value);
  }
  const form = await new Request(request.url, {
    method: "POST",
    headers: { "content-type": request.headers.get("content-type") ?? "" },
    body: new Blob(chunks as BlobPart[]),
  }).formData();
  return { values: formValues(form, ["g-recaptcha-response"]), form, tooLarge: false };
}

// Duck-typed: the services' zod may be another module instance than the app bundle's.
const isZodError = (err: unknown): err is z.ZodError =>
  typeof err === "object" && err !== null && (err as { name?: unknown }).name === "ZodError" &&
  Array.isArray((err as { issues?: unknown }).issues);

type ServiceError = Error & { status: number; headers?: Record<string, string> };
const isRefusal = (err: unknown): err is ServiceError =>
  err instanceof Error && typeof (err as { status?: unknown }).status === "number" && (err as ServiceError).status < 500;

/** A refused submission as the form shows it; anything unexpected is rethrown (the error page). */
export function leadFailure(err: unknown, values: LeadFormValues) {
  if (isZodError(err)) return data<LeadFormResult>({ ok: false, errors: fieldErrors(err), values }, { status: 400 });
  if (isRefusal(err)) {
    return data<LeadFormResult>({ ok: false, message: err.message, values }, { status: err.status, headers: err.headers });
  }
  throw err;
}

export const tooLargeFailure = () =>
  data<LeadFormResult>({ ok: false, errors: { logo: LOGO_MESSAGES.size }, values: {} }, { status: 413 });

export type LeadMeta = { siteId: string; ip: string; token?: string };

/**
 * The whole action of a lead form page: read the post, hand it to the lead
 * service (which stores it before mailing), answer what the form shows.
 */
export async function handleLeadPost(
  request: Request,
  context: Readonly<RouterContextProvider>,
  submit: (read: { values: LeadFormValues; form: FormData }, meta: LeadMeta, services: RequestContext["services"]) => Promise<{ message: string; id: number }>,
) {
  const { services, site, clientIp } = context.get(requestContext);
  const read = await readLeadForm(request);
  if (read.tooLarge || !read.form) return tooLargeFailure();
  const token = read.form.get("g-recaptcha-response");
  try {
    const meta = { siteId: site.id, ip: clientIp, token: typeof token === "string" ? token : undefined };
    const receipt = await submit({ values: read.values, form: read.form }, meta, services);
    return { ok: true, message: receipt.message, id: receipt.id } satisfies LeadFormResult;
  } catch (err) {
    return leadFailure(err, read.values);
  }
}
