import type { Route } from "./+types/advertise";

export const meta: Route.MetaFunction = () => [{ title: "Advertise with OfferAtlas | OfferAtlas" }];

export default function Page() {
  return (
    <section>
      <h1 className="text-2xl font-semibold">Advertise with OfferAtlas</h1>
      <p className="mt-2 text-slate-600">Reach affiliates who are choosing their next offer, network and traffic source.</p>
    </section>
  );
}
