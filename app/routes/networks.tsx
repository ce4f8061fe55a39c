import type { Route } from "./+types/networks";

export const meta: Route.MetaFunction = () => [{ title: "Affiliate networks | OfferAtlas" }];

export default function Page() {
  return (
    <section>
      <h1 className="text-2xl font-semibold">Affiliate networks</h1>
      <p className="mt-2 text-slate-600">Browse affiliate networks with ratings and reviews.</p>
    </section>
  );
}
