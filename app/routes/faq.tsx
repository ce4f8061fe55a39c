import type { Route } from "./+types/faq";

export const meta: Route.MetaFunction = () => [{ title: "Frequently asked questions | OfferAtlas" }];

export default function Page() {
  return (
    <section>
      <h1 className="text-2xl font-semibold">Frequently asked questions</h1>
      <p className="mt-2 text-slate-600">Answers to what affiliates ask us most.</p>
    </section>
  );
}
