import type { Route } from "./+types/login";

export const meta: Route.MetaFunction = () => [{ title: "Log in | OfferAtlas" }];

export default function Page() {
  return (
    <section>
      <h1 className="text-2xl font-semibold">Log in</h1>
      <p className="mt-2 text-slate-600">Log in to write network reviews and keep your searches.</p>
    </section>
  );
}
