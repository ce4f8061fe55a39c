// /register (docs/product.md §2/§5): guest-only signup. The phone loses its whitespace and
// is left out when empty; success sets justRegistered and says so plainly.
import { Link } from "#app/ui/Link.tsx";
import { ANTIBOT_ACTIONS } from "#contracts/antibot.ts";
import { registerSchema } from "#contracts/auth.ts";
import { AntibotForm } from "#app/ui/antibot/AntibotForm.tsx";
import { Fields, FormAlert, TextField, useFormResult } from "#app/ui/form/Fields.tsx";
import type { FormResult } from "#app/ui/form/form.ts";
import { handleForm } from "#app/ui/form/form.server.ts";
import { guestOnly } from "#app/lib/guard.server.ts";
import { requestContext, signedIn } from "#app/context.ts";
import { accountForm, visitor } from "./account.server";
import { Accepted } from "./Accepted";
import { NewPasswordFields } from "./NewPasswordFields";
import type { Route } from "./+types/register";
import { fixedPageMeta } from "#app/lib/seo.ts";

export const meta: Route.MetaFunction = fixedPageMeta({
  title: "Create your account",
  description: "Register for free to review networks, watch offers, save searches with alerts and use the API.",
  path: "/register",
});

export async function loader({ context }: Route.LoaderArgs) {
  guestOnly(signedIn(context.get(requestContext)));
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services, site, clientIp } = context.get(requestContext);
  return handleForm(request, accountForm("password"), async (values) => {
    const user = await services.auth.register(site.id, registerSchema.parse(values), visitor(request, clientIp));
    // The confirmation names the address the account was made for.
    return { ok: true, values: { email: user.email } } satisfies FormResult;
  });
}

export default function RegisterPage() {
  const { result, busy } = useFormResult();
  if (result?.ok) {
    return (
      <Accepted testId="registered" title="Your account has been created">
        Welcome to OfferAtlas! You can now log in with <strong>{result.values?.email}</strong> and your password.
      </Accepted>
    );
  }
  return (
    <section className="mx-auto max-w-md">
      <h1 className="text-2xl font-semibold">Create your account</h1>
      <p className="mt-2 text-slate-600">Register to review networks and be remembered.</p>
      <AntibotForm
        action="/register"
        antibotAction={ANTIBOT_ACTIONS.register}
        className="card mt-4 space-y-3"
        noValidate
      >
        <FormAlert result={result} />
        <Fields errors={result?.errors} values={result?.values}>
          <TextField label="Name" name="name" autoComplete="name" required />
          <TextField label="Email" name="email" type="email" autoComplete="email" required />
          <NewPasswordFields label="Password" />
          <TextField label="Phone (optional)" name="phone" type="tel" autoComplete="tel" />
          <TextField label="Company (optional)" name="company" autoComplete="organization" />
          <TextField label="Skype / Telegram (optional)" name="messenger" />
        </Fields>
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          Register
        </button>
        <p className="text-sm">
          Already registered?{" "}
          <Link to="/login" className="link">
            Log in
          </Link>
        </p>
      </AntibotForm>
    </section>
  );
}
