import type { Route } from "./+types/traffic-source";

export const meta: Route.MetaFunction = () => [{ title: "Traffic source | OfferAtlas" }];

export default function Page() {
  return (
    <section>
      <h1 className="text-2xl font-semibold">Traffic source</h1>
      <p className="mt-2 text-slate-600">Traffic source details.</p>
    </section>
  );
}
