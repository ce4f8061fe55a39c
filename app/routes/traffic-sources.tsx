import type { Route } from "./+types/traffic-sources";

export const meta: Route.MetaFunction = () => [{ title: "Traffic sources | OfferAtlas" }];

export default function Page() {
  return (
    <section>
      <h1 className="text-2xl font-semibold">Traffic sources</h1>
      <p className="mt-2 text-slate-600">Browse traffic sources by ad format, pricing and geos.</p>
    </section>
  );
}
