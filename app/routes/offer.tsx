import type { Route } from "./+types/offer";

export const meta: Route.MetaFunction = () => [{ title: "Offer | OfferAtlas" }];

export default function Page() {
  return (
    <section>
      <h1 className="text-2xl font-semibold">Offer</h1>
      <p className="mt-2 text-slate-600">Offer details.</p>
    </section>
  );
}
