import type { Route } from "./+types/privacy";

export const meta: Route.MetaFunction = () => [{ title: "Privacy | OfferAtlas" }];

export default function Page() {
  return (
    <section>
      <h1 className="text-2xl font-semibold">Privacy</h1>
      <p className="mt-2 text-slate-600">How OfferAtlas handles your data.</p>
    </section>
  );
}
