import type { Route } from "./+types/pay-per-call";

export const meta: Route.MetaFunction = () => [{ title: "Pay per call | OfferAtlas" }];

export default function Page() {
  return (
    <section>
      <h1 className="text-2xl font-semibold">Pay per call</h1>
      <p className="mt-2 text-slate-600">Pay-per-call offers pay for qualified phone calls instead of clicks or leads.</p>
    </section>
  );
}
