// /reset-password?token=…: the link from the mail. A valid, unused link shows
// the new-password form; success ends every session and sends the user to log in.
import { Link, useActionData, useLoaderData, useNavigation } from "react-router";
import { ANTIBOT_ACTIONS, resetPasswordSchema } from "#contracts/auth.ts";
import { AntibotForm } from "#app/components/antibot/AntibotForm.tsx";
import { Field, FormAlert, useFailureNotice } from "#app/components/account/FormParts.tsx";
import { invalid, readForm, refused, type FormResult } from "#app/lib/account-forms.ts";
import { requestContext } from "#app/context.ts";
import type { Route } from "./+types/reset-password";

export const meta: Route.MetaFunction = () => [{ title: "Choose a new password | OfferAtlas" }, { name: "robots", content: "noindex" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const valid = token ? await context.get(requestContext).services.auth.resetTokenValid(token) : false;
  return { token: valid ? token : "", valid };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services, clientIp } = context.get(requestContext);
  const values = await readForm(request);
  const parsed = resetPasswordSchema.safeParse(values);
  if (!parsed.success) return invalid(parsed.error, values);
  try {
    await services.auth.resetPassword(parsed.data, { ip: clientIp, userAgent: request.headers.get("user-agent") ?? undefined });
    return { ok: true, message: "Your password has been changed. You can now log in with the new one." } satisfies FormResult;
  } catch (err) {
    return refused(err, values, "password");
  }
}

export default function ResetPasswordPage() {
  const { token, valid } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const busy = useNavigation().state === "submitting";
  useFailureNotice(result);
  if (result?.ok) {
    return (
      <section className="mx-auto max-w-md">
        <div role="status" data-testid="password-changed" className="card border-emerald-300 bg-emerald-50 text-emerald-900">
          <h1 className="text-2xl font-semibold">Password changed</h1>
          <p className="mt-2">{result.message}</p>
          <Link to="/login" className="btn-primary mt-4 inline-block">Log in</Link>
        </div>
      </section>
    );
  }
  if (!valid) {
    return (
      <section className="mx-auto max-w-md">
        <h1 className="text-2xl font-semibold">Choose a new password</h1>
        <p role="alert" className="card mt-4 text-slate-700">
          This password reset link is invalid or has expired. <Link to="/forgot-password" className="link">Ask for a new link</Link>.
        </p>
      </section>
    );
  }
  const e = result?.errors ?? {};
  return (
    <section className="mx-auto max-w-md">
      <h1 className="text-2xl font-semibold">Choose a new password</h1>
      <AntibotForm action={`/reset-password?token=${encodeURIComponent(token)}`} antibotAction={ANTIBOT_ACTIONS.resetPassword}
        className="card mt-4 space-y-3" noValidate>
        <FormAlert result={e.password && result?.message === e.password ? undefined : result} />
        <input type="hidden" name="token" value={token} />
        <Field label="New password" name="password" type="password" autoComplete="new-password" required minLength={8} error={e.password} />
        <Field label="Confirm Password" name="confirmPassword" type="password" autoComplete="new-password" required error={e.confirmPassword} />
        <button type="submit" className="btn-primary w-full" disabled={busy}>Change my password</button>
      </AntibotForm>
    </section>
  );
}
