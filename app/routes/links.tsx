import type { Route } from "./+types/links";

export const meta: Route.MetaFunction = () => [{ title: "Links | OfferAtlas" }];

export default function Page() {
  return (
    <section>
      <h1 className="text-2xl font-semibold">Links</h1>
      <p className="mt-2 text-slate-600">Every network, traffic source and offer in the directory.</p>
    </section>
  );
}
