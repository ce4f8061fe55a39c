import type { Route } from "./+types/network";

export const meta: Route.MetaFunction = () => [{ title: "Network | OfferAtlas" }];

export default function Page() {
  return (
    <section>
      <h1 className="text-2xl font-semibold">Network</h1>
      <p className="mt-2 text-slate-600">Network profile.</p>
    </section>
  );
}
