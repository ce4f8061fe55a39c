// /reset-password?token=…: the link from the mail. A valid, unused link shows
// the new-password form; success ends every session and sends the user to log in.
import { useLoaderData } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { ANTIBOT_ACTIONS } from "#contracts/antibot.ts";
import { resetPasswordSchema } from "#contracts/auth.ts";
import { AntibotForm } from "#app/ui/antibot/AntibotForm.tsx";
import { Fields, FormAlert, useFormResult } from "#app/ui/form/Fields.tsx";
import type { FormResult } from "#app/ui/form/form.ts";
import { handleForm } from "#app/ui/form/form.server.ts";
import { requestContext } from "#app/context.ts";
import { accountForm, visitor } from "./account.server";
import { Accepted } from "./Accepted";
import { NewPasswordFields } from "./NewPasswordFields";
import type { Route } from "./+types/reset-password";
import { unlistedPageMeta } from "#app/lib/seo.ts";

export const meta: Route.MetaFunction = (args) =>
  unlistedPageMeta(args, {
    title: "Choose a new password",
    description: "Choose a new password for your account with the link we mailed you.",
  });

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const valid = token ? await context.get(requestContext).services.auth.resetTokenValid(token) : false;
  return { token: valid ? token : "", valid };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services, clientIp } = context.get(requestContext);
  return handleForm(request, accountForm("password"), async (values) => {
    await services.auth.resetPassword(resetPasswordSchema.parse(values), visitor(request, clientIp));
    return {
      ok: true,
      message: "Your password has been changed. You can now log in with the new one.",
    } satisfies FormResult;
  });
}

export default function ResetPasswordPage() {
  const { token, valid } = useLoaderData<typeof loader>();
  const { result, busy } = useFormResult();
  if (result?.ok)
    return (
      <Accepted testId="password-changed" title="Password changed">
        {result.message}
      </Accepted>
    );
  if (!valid) {
    return (
      <section className="mx-auto max-w-md">
        <h1 className="text-2xl font-semibold">Choose a new password</h1>
        <p role="alert" className="card mt-4 text-slate-700">
          This password reset link is invalid or has expired.{" "}
          <Link to="/forgot-password" className="link">
            Ask for a new link
          </Link>
          .
        </p>
      </section>
    );
  }
  return (
    <section className="mx-auto max-w-md">
      <h1 className="text-2xl font-semibold">Choose a new password</h1>
      <AntibotForm
        action={`/reset-password?token=${encodeURIComponent(token)}`}
        antibotAction={ANTIBOT_ACTIONS.resetPassword}
        className="card mt-4 space-y-3"
        noValidate
      >
        <FormAlert result={result} />
        <input type="hidden" name="token" value={token} />
        <Fields errors={result?.errors}>
          <NewPasswordFields label="New password" />
        </Fields>
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          Change my password
        </button>
      </AntibotForm>
    </section>
  );
}
