// /forgot-password: asks for a reset link. The answer is the same whether or
// not the address has an account.
import { Link, useActionData, useNavigation } from "react-router";
import { ANTIBOT_ACTIONS, forgotPasswordSchema } from "#contracts/auth.ts";
import { AntibotForm } from "#app/components/antibot/AntibotForm.tsx";
import { Field, FormAlert, useFailureNotice } from "#app/components/account/FormParts.tsx";
import { invalid, readForm, refused, type FormResult } from "#app/lib/account-forms.ts";
import { requestContext } from "#app/context.ts";
import type { Route } from "./+types/forgot-password";

export const meta: Route.MetaFunction = () => [{ title: "Password recovery | OfferAtlas" }];

const MAIL_SENT = "If an account exists for this email address, we have sent a link to reset the password. The link works for one hour.";

export async function action({ request, context }: Route.ActionArgs) {
  const { services, clientIp } = context.get(requestContext);
  const values = await readForm(request);
  const parsed = forgotPasswordSchema.safeParse(values);
  if (!parsed.success) return invalid(parsed.error, values);
  try {
    await services.auth.forgotPassword(parsed.data, { ip: clientIp, userAgent: request.headers.get("user-agent") ?? undefined });
    return { ok: true, message: MAIL_SENT } satisfies FormResult;
  } catch (err) {
    return refused(err, values);
  }
}

export default function ForgotPasswordPage() {
  const result = useActionData<FormResult>();
  const busy = useNavigation().state === "submitting";
  useFailureNotice(result);
  return (
    <section className="mx-auto max-w-md">
      <h1 className="text-2xl font-semibold">Password recovery</h1>
      {result?.ok ? (
        <div role="status" data-testid="reset-mail-sent" className="card mt-4 border-emerald-300 bg-emerald-50 text-emerald-900">
          <p>{result.message}</p>
          <p className="mt-2 text-sm">Nothing arrived? Check your spam folder, or <Link to="/forgot-password" className="link" reloadDocument>try again</Link>.</p>
        </div>
      ) : (
        <>
          <p className="mt-2 text-slate-600">Enter your email address and we will send you a link to reset your password.</p>
          <AntibotForm action="/forgot-password" antibotAction={ANTIBOT_ACTIONS.forgotPassword} className="card mt-4 space-y-3" noValidate>
            <FormAlert result={result} />
            <Field label="Email" name="email" type="email" autoComplete="email" required defaultValue={result?.values?.email} error={result?.errors?.email} />
            <button type="submit" className="btn-primary w-full" disabled={busy}>Send the reset link</button>
            <p className="text-sm"><Link to="/login" className="link">Back to log in</Link></p>
          </AntibotForm>
        </>
      )}
    </section>
  );
}
