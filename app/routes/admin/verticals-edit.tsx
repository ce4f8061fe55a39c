// /admin/verticals/:id: rename a vertical, or merge it into another (its offers
// move there and it is removed, in one transaction). A stale page answers 409.
import { redirect, useLoaderData, useSearchParams } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { ConsoleForm } from "#app/ui/admin/ConsoleForm.tsx";
import { TextField } from "#app/ui/form/Fields.tsx";
import { handleForm } from "#app/ui/form/form.server.ts";
import { Flag } from "./networks-form";
import { consoleAction, refusedAsPage, requireStaff } from "./staff.server";
import type { Route } from "./+types/verticals-edit";
import { consoleMeta } from "./console-meta";

export const meta: Route.MetaFunction = ({ loaderData, ...args }) =>
  consoleMeta(args, loaderData?.vertical.name ?? "Vertical");

export async function loader(args: Route.LoaderArgs) {
  const { services } = requireStaff(args, "admin");
  const vertical = await refusedAsPage(services.verticalEditor.get(args.params.id));
  const others = (await services.offers.categories()).filter((c) => c.id !== vertical.id);
  return { vertical, others: others.map((c) => ({ id: c.id, name: c.name })) };
}

const FIELDS = ["name", "slug", "top", "intoId", "updatedAt"];

export async function action(args: Route.ActionArgs) {
  const id = args.params.id;
  const staff = requireStaff(args, "admin");
  const editor = { siteId: staff.site.id, userId: staff.user.id };
  const posted = await args.request.clone().formData();
  // A merge removes this vertical: its page is gone, so the answer is the one it joined.
  if (posted.get("intent") === "merge")
    return handleForm(args.request, { fields: new Set([...FIELDS, "intent"]) }, async (values) => {
      const { into, offersMoved } = await staff.services.verticalEditor.merge(editor, id, {
        intoId: values.intoId,
        updatedAt: values.updatedAt,
      });
      return redirect(`/admin/verticals/${into.id}?merged=${offersMoved}`);
    });
  return consoleAction(args, "admin", FIELDS, {
    rename: async (values, { services }) => {
      const v = await services.verticalEditor.rename(editor, id, {
        updatedAt: values.updatedAt,
        name: values.name,
        slug: values.slug,
        top: values.top === "true",
      });
      return `Saved as ${v.name}.`;
    },
  });
}

export default function EditVertical() {
  const { vertical: v, others } = useLoaderData<typeof loader>();
  const merged = useSearchParams()[0].get("merged");
  return (
    <section className="space-y-4">
      <nav className="text-sm">
        <Link to="/admin/verticals" className="link">
          ← All verticals
        </Link>
      </nav>
      <h1 className="text-2xl font-semibold">{v.name}</h1>
      <p className="text-sm text-slate-600" data-testid="vertical-offer-count">
        {v.offerCount.toLocaleString("en-US")} active offers
        {merged !== null && ` · ${merged} offers moved here by the merge`}
      </p>
      <div className="card" key={v.updatedAt}>
        <h2 className="mb-2 text-base font-semibold">Rename</h2>
        <ConsoleForm
          intent="rename"
          submitLabel="Save"
          hidden={{ updatedAt: v.updatedAt }}
          defaults={{ name: v.name, slug: v.slug, top: v.top ? "true" : "" }}
        >
          <TextField name="name" label="Name" required maxLength={100} />
          <TextField name="slug" label="Slug" hint="Made from the name when left empty." maxLength={120} />
          <Flag name="top" label="Top vertical (shown first)" values={{ top: v.top ? "true" : "" }} />
        </ConsoleForm>
      </div>
      <div className="card">
        <h2 className="mb-2 text-base font-semibold">Merge into another vertical</h2>
        <ConsoleForm intent="merge" submitLabel="Merge" tone="danger" hidden={{ updatedAt: v.updatedAt }}>
          <p className="text-sm text-slate-700">
            Every offer of {v.name} moves to the vertical chosen, and {v.name} is removed. Old links and filters naming
            it find nothing rather than failing.
          </p>
          <label className="block text-sm font-medium text-slate-700">
            Merge into
            <select name="intoId" className="input mt-1" required defaultValue="">
              <option value="">Choose a vertical</option>
              {others.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
          </label>
        </ConsoleForm>
      </div>
    </section>
  );
}
