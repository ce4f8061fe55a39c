// /forgot-password: asks for a reset link. The answer is the same whether or
// not the address has an account.
import { Link } from "#app/ui/Link.tsx";
import { ANTIBOT_ACTIONS } from "#contracts/antibot.ts";
import { forgotPasswordSchema } from "#contracts/auth.ts";
import { AntibotForm } from "#app/ui/antibot/AntibotForm.tsx";
import { Fields, FormAlert, TextField, useFormResult } from "#app/ui/form/Fields.tsx";
import type { FormResult } from "#app/ui/form/form.ts";
import { handleForm } from "#app/ui/form/form.server.ts";
import { requestContext } from "#app/context.ts";
import { accountForm, visitor } from "./account.server";
import type { Route } from "./+types/forgot-password";
import { fixedPageMeta } from "#app/lib/seo.ts";

export const meta: Route.MetaFunction = fixedPageMeta({
  title: "Password recovery",
  description: "Forgot your password? Enter your email address and we mail you a link to choose a new one.",
  path: "/forgot-password",
});

const MAIL_SENT =
  "If an account exists for this email address, we have sent a link to reset the password. The link works for one hour.";

export async function action({ request, context }: Route.ActionArgs) {
  const { services, clientIp } = context.get(requestContext);
  return handleForm(request, accountForm(), async (values) => {
    await services.auth.forgotPassword(forgotPasswordSchema.parse(values), visitor(request, clientIp));
    return { ok: true, message: MAIL_SENT } satisfies FormResult;
  });
}

export default function ForgotPasswordPage() {
  const { result, busy } = useFormResult();
  return (
    <section className="mx-auto max-w-md">
      <h1 className="text-2xl font-semibold">Password recovery</h1>
      {result?.ok ? (
        <div
          role="status"
          data-testid="reset-mail-sent"
          className="card mt-4 border-emerald-300 bg-emerald-50 text-emerald-900"
        >
          <p>{result.message}</p>
          <p className="mt-2 text-sm">
            Nothing arrived? Check your spam folder, or{" "}
            <Link to="/forgot-password" className="link" reloadDocument>
              try again
            </Link>
            .
          </p>
        </div>
      ) : (
        <>
          <p className="mt-2 text-slate-600">
            Enter your email address and we will send you a link to reset your password.
          </p>
          <AntibotForm
            action="/forgot-password"
            antibotAction={ANTIBOT_ACTIONS.forgotPassword}
            className="card mt-4 space-y-3"
            noValidate
          >
            <FormAlert result={result} />
            <Fields errors={result?.errors} values={result?.values}>
              <TextField label="Email" name="email" type="email" autoComplete="email" required />
            </Fields>
            <button type="submit" className="btn-primary w-full" disabled={busy}>
              Send the reset link
            </button>
            <p className="text-sm">
              <Link to="/login" className="link">
                Back to log in
              </Link>
            </p>
          </AntibotForm>
        </>
      )}
    </section>
  );
}
