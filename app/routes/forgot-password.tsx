import type { Route } from "./+types/forgot-password";

export const meta: Route.MetaFunction = () => [{ title: "Password recovery | OfferAtlas" }];

export default function Page() {
  return (
    <section>
      <h1 className="text-2xl font-semibold">Password recovery</h1>
      <p className="mt-2 text-slate-600">Enter your email address and we will send you a link to reset your password.</p>
    </section>
  );
}
