// /login (docs/product.md §4): guest-only. Posting email and password (from this page or
// the navigation dropdown) starts a session and goes to the remembered path or
// /; a failure comes back here with the error notification.
import { redirect, useLoaderData } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { ANTIBOT_ACTIONS } from "#contracts/antibot.ts";
import { loginSchema } from "#contracts/auth.ts";
import { AntibotForm } from "#app/ui/antibot/AntibotForm.tsx";
import { Fields, FormAlert, TextField, useFormResult } from "#app/ui/form/Fields.tsx";
import { handleForm } from "#app/ui/form/form.server.ts";
import { guestOnly, safeRedirectPath } from "#app/lib/guard.server.ts";
import { requestContext, signedIn } from "#app/context.ts";
import { accountForm, visitor } from "./account.server";
import type { Route } from "./+types/login";
import { fixedPageMeta } from "#app/lib/seo.ts";

export const meta: Route.MetaFunction = fixedPageMeta({
  title: "Log in",
  description: "Log in to your account to watch offers, save searches with alerts and manage your API keys.",
  path: "/login",
});

export async function loader({ request, context }: Route.LoaderArgs) {
  guestOnly(signedIn(context.get(requestContext)));
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  return { redirectTo: redirectTo ? safeRedirectPath(redirectTo) : "" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services, clientIp } = context.get(requestContext);
  return handleForm(request, accountForm(), async (values) => {
    const session = await services.auth.login(loginSchema.parse(values), visitor(request, clientIp));
    const cookie = services.auth.sessionCookie(session, services.secureCookies);
    return redirect(safeRedirectPath(values.redirectTo), { headers: { "Set-Cookie": cookie } });
  });
}

export default function LoginPage() {
  const { redirectTo } = useLoaderData<typeof loader>();
  const { result, busy } = useFormResult();
  return (
    <section className="mx-auto max-w-md">
      <h1 className="text-2xl font-semibold">Log in</h1>
      <p className="mt-2 text-slate-600">Log in to write network reviews and keep your searches.</p>
      <AntibotForm action="/login" antibotAction={ANTIBOT_ACTIONS.login} className="card mt-4 space-y-3" noValidate>
        <FormAlert result={result} />
        {redirectTo && <input type="hidden" name="redirectTo" value={redirectTo} />}
        <Fields errors={result?.errors} values={result?.values}>
          <TextField label="Email" name="email" type="email" autoComplete="email" required />
          <TextField label="Password" name="password" type="password" autoComplete="current-password" required />
        </Fields>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" name="remember" value="true" defaultChecked={result?.values?.remember === "true"} />{" "}
          Remember Me
        </label>
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          Log In
        </button>
        <div className="flex justify-between text-sm">
          <Link to="/forgot-password" className="link">
            Forgot your password?
          </Link>
          <Link to="/register" className="link">
            Not registered yet?
          </Link>
        </div>
      </AntibotForm>
    </section>
  );
}
