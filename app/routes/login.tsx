// /login (spec §4): guest-only. Posting email and password (from this page or
// the navigation dropdown) starts a session and goes to the remembered path or
// /; a failure comes back here with the error notification.
import { Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import { ANTIBOT_ACTIONS, loginSchema, serializeSessionCookie } from "#contracts/auth.ts";
import { AntibotForm } from "#app/components/antibot/AntibotForm.tsx";
import { Field, FormAlert, useFailureNotice } from "#app/components/account/FormParts.tsx";
import { invalid, readForm, refused, type FormResult } from "#app/lib/account-forms.ts";
import { guestOnly, safeRedirectPath } from "#app/lib/guard.ts";
import { requestContext } from "#app/context.ts";
import type { Route } from "./+types/login";

export const meta: Route.MetaFunction = () => [{ title: "Log in | OfferAtlas" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  guestOnly(context.get(requestContext).user);
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  return { redirectTo: redirectTo ? safeRedirectPath(redirectTo) : "" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services, clientIp } = context.get(requestContext);
  const values = await readForm(request);
  const parsed = loginSchema.safeParse(values);
  if (!parsed.success) return invalid(parsed.error, values);
  try {
    const session = await services.auth.login(parsed.data, { ip: clientIp, userAgent: request.headers.get("user-agent") ?? undefined });
    const cookie = serializeSessionCookie(session.token, {
      secure: services.secureCookies,
      // Remember Me: a cookie that outlives the browser; otherwise a browser-session cookie.
      maxAgeSeconds: session.remember ? Math.floor((session.expiresAt.getTime() - Date.now()) / 1000) : undefined,
    });
    return redirect(safeRedirectPath(values.redirectTo), { headers: { "Set-Cookie": cookie } });
  } catch (err) {
    return refused(err, values);
  }
}

export default function LoginPage() {
  const { redirectTo } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const busy = useNavigation().state === "submitting";
  useFailureNotice(result);
  return (
    <section className="mx-auto max-w-md">
      <h1 className="text-2xl font-semibold">Log in</h1>
      <p className="mt-2 text-slate-600">Log in to write network reviews and keep your searches.</p>
      <AntibotForm action="/login" antibotAction={ANTIBOT_ACTIONS.login} className="card mt-4 space-y-3" noValidate>
        <FormAlert result={result} />
        {redirectTo && <input type="hidden" name="redirectTo" value={redirectTo} />}
        <Field label="Email" name="email" type="email" autoComplete="email" required defaultValue={result?.values?.email} error={result?.errors?.email} />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required error={result?.errors?.password} />
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" name="remember" value="true" defaultChecked={result?.values?.remember === "true"} /> Remember Me
        </label>
        <button type="submit" className="btn-primary w-full" disabled={busy}>Log In</button>
        <div className="flex justify-between text-sm">
          <Link to="/forgot-password" className="link">Forgot your password?</Link>
          <Link to="/register" className="link">Not registered yet?</Link>
        </div>
      </AntibotForm>
    </section>
  );
}
