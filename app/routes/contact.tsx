import type { Route } from "./+types/contact";

export const meta: Route.MetaFunction = () => [{ title: "Help and support | OfferAtlas" }];

export default function Page() {
  return (
    <section>
      <h1 className="text-2xl font-semibold">Help and support</h1>
      <p className="mt-2 text-slate-600">Questions about the directory, your listing or your account: write to us.</p>
    </section>
  );
}
