import type { Route } from "./+types/register";

export const meta: Route.MetaFunction = () => [{ title: "Create your account | OfferAtlas" }];

export default function Page() {
  return (
    <section>
      <h1 className="text-2xl font-semibold">Create your account</h1>
      <p className="mt-2 text-slate-600">Register to review networks and be remembered.</p>
    </section>
  );
}
