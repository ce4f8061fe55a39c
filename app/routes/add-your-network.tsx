import type { Route } from "./+types/add-your-network";

export const meta: Route.MetaFunction = () => [{ title: "Add your network | OfferAtlas" }];

export default function Page() {
  return (
    <section>
      <h1 className="text-2xl font-semibold">Add your network</h1>
      <p className="mt-2 text-slate-600">Submit your affiliate network for listing in the directory.</p>
    </section>
  );
}
