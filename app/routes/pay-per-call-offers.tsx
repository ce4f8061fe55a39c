import type { Route } from "./+types/pay-per-call-offers";

export const meta: Route.MetaFunction = () => [{ title: "Pay-per-call offers | OfferAtlas" }];

export default function Page() {
  return (
    <section>
      <h1 className="text-2xl font-semibold">Pay-per-call offers</h1>
      <p className="mt-2 text-slate-600">Offers that pay per qualified call.</p>
    </section>
  );
}
