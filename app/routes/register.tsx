// /register (spec §2/§5): guest-only signup. The phone loses its whitespace and
// is left out when empty; success sets justRegistered and says so plainly.
import { Link, useActionData, useNavigation } from "react-router";
import { ANTIBOT_ACTIONS, registerSchema } from "#contracts/auth.ts";
import { AntibotForm } from "#app/components/antibot/AntibotForm.tsx";
import { Field, FormAlert, useFailureNotice } from "#app/components/account/FormParts.tsx";
import { invalid, readForm, refused, type FormResult } from "#app/lib/account-forms.ts";
import { guestOnly } from "#app/lib/guard.ts";
import { requestContext } from "#app/context.ts";
import type { Route } from "./+types/register";

export const meta: Route.MetaFunction = () => [{ title: "Create your account | OfferAtlas" }];

type RegisterResult = FormResult & { justRegistered?: boolean; email?: string };

export async function loader({ context }: Route.LoaderArgs) {
  guestOnly(context.get(requestContext).user);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services, site, clientIp } = context.get(requestContext);
  const values = await readForm(request);
  const parsed = registerSchema.safeParse(values);
  if (!parsed.success) return invalid(parsed.error, values);
  try {
    const user = await services.auth.register(parsed.data, site.id, { ip: clientIp, userAgent: request.headers.get("user-agent") ?? undefined });
    return { ok: true, justRegistered: true, email: user.email } satisfies RegisterResult;
  } catch (err) {
    return refused(err, values, "password");
  }
}

export default function RegisterPage() {
  const result = useActionData<RegisterResult>();
  const busy = useNavigation().state === "submitting";
  useFailureNotice(result);
  if (result?.justRegistered) {
    return (
      <section className="mx-auto max-w-md">
        <div role="status" data-testid="registered" className="card border-emerald-300 bg-emerald-50">
          <h1 className="text-2xl font-semibold text-emerald-900">Your account has been created</h1>
          <p className="mt-2 text-emerald-900">
            Welcome to OfferAtlas! You can now log in with <strong>{result.email}</strong> and your password.
          </p>
          <Link to="/login" className="btn-primary mt-4 inline-block">Log in</Link>
        </div>
      </section>
    );
  }
  const v = result?.values ?? {};
  const e = result?.errors ?? {};
  return (
    <section className="mx-auto max-w-md">
      <h1 className="text-2xl font-semibold">Create your account</h1>
      <p className="mt-2 text-slate-600">Register to review networks and be remembered.</p>
      <AntibotForm action="/register" antibotAction={ANTIBOT_ACTIONS.register} className="card mt-4 space-y-3" noValidate>
        <FormAlert result={e.password && result?.message === e.password ? undefined : result} />
        <Field label="Name" name="name" autoComplete="name" required defaultValue={v.name} error={e.name} />
        <Field label="Email" name="email" type="email" autoComplete="email" required defaultValue={v.email} error={e.email} />
        <Field label="Password" name="password" type="password" autoComplete="new-password" required minLength={8} error={e.password} />
        <Field label="Confirm Password" name="confirmPassword" type="password" autoComplete="new-password" required error={e.confirmPassword} />
        <Field label="Phone (optional)" name="phone" type="tel" autoComplete="tel" defaultValue={v.phone} error={e.phone} />
        <Field label="Company (optional)" name="company" autoComplete="organization" defaultValue={v.company} error={e.company} />
        <Field label="Skype / Telegram (optional)" name="messenger" defaultValue={v.messenger} error={e.messenger} />
        <button type="submit" className="btn-primary w-full" disabled={busy}>Register</button>
        <p className="text-sm">Already registered? <Link to="/login" className="link">Log in</Link></p>
      </AntibotForm>
    </section>
  );
}
