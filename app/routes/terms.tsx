import type { Route } from "./+types/terms";

export const meta: Route.MetaFunction = () => [{ title: "Terms | OfferAtlas" }];

export default function Page() {
  return (
    <section>
      <h1 className="text-2xl font-semibold">Terms</h1>
      <p className="mt-2 text-slate-600">The terms of using OfferAtlas.</p>
    </section>
  );
}
