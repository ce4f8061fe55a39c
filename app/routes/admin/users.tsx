// /admin/users: accounts and their console roles (admins only). Each row saves
// its own roles; a save made from a stale page answers 409 and an admin cannot
// drop their own admin role (core/auth/roles.ts). A change applies from the
// account's next request: the session reads the roles every time.
// The action reads the ticked boxes with getAll: a form value list holds one value per name.
import { Form, useLoaderData } from "react-router";
import { createColumnHelper } from "@tanstack/react-table";
import { ROLES } from "#contracts/roles.ts";
import { userFilter, type StaffAccount } from "#core/auth/roles.ts";
import { AdminTable, FilterTabs } from "#app/ui/admin/AdminTable.tsx";
import { ConsoleForm } from "#app/ui/admin/ConsoleForm.tsx";
import { dateTime } from "#app/ui/admin/format.ts";
import { CheckboxGroup, Fields, useSettledActionData } from "#app/ui/form/Fields.tsx";
import type { FormResult } from "#app/ui/form/form.ts";
import { handleForm } from "#app/ui/form/form.server.ts";
import { badRequest } from "#core/errors.ts";
import { queryOf, requireStaff } from "./staff.server";
import type { Route } from "./+types/users";
import { consoleMeta } from "./console-meta";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "Users");

export async function loader(args: Route.LoaderArgs) {
  const { services } = requireStaff(args, "admin");
  const filter = queryOf(args.request, userFilter);
  return { list: await services.roles.list(filter), filter };
}

/** What a role form posts (and may show again after a refusal). */
const ROLE_FORM_FIELDS = new Set(["intent", "id", "roles", "updatedAt"]);

export async function action(args: Route.ActionArgs) {
  const { services, site, user } = requireStaff(args, "admin");
  return handleForm(args.request, { fields: ROLE_FORM_FIELDS }, async (values, form) => {
    if (values.intent !== "roles") throw badRequest("This action is not available here");
    // Every ticked box (none ticked posts no `roles` at all: the account keeps no role).
    const roles = form.getAll("roles").filter((role) => typeof role === "string");
    const saved = await services.roles.setRoles({ siteId: site.id, userId: user.id }, values.id, {
      roles,
      updatedAt: values.updatedAt,
    });
    const message = saved.roles.length
      ? `Saved: ${saved.email} is now ${saved.roles.join(" and ")}.`
      : `Saved: ${saved.email} holds no console role.`;
    // Names the form it answers (ConsoleForm shows it beside that account's boxes).
    return { ok: true, message, values: { intent: "roles", id: String(saved.id) } } satisfies FormResult;
  });
}

const ROLE_TABS = [
  { value: undefined, label: "All" },
  { value: "admin", label: "Admins" },
  { value: "moderator", label: "Moderators" },
  { value: "none", label: "No role" },
] as const;

/** The row's role boxes, ticked as saved; a refusal's message shows beside them (ConsoleForm). */
function RoleForm({ account }: { account: StaffAccount }) {
  const result = useSettledActionData();
  const mine = result?.values?.intent === "roles" && result.values.id === String(account.id) ? result : undefined;
  return (
    <ConsoleForm
      intent="roles"
      recordId={account.id}
      submitLabel="Save roles"
      hidden={{ updatedAt: account.updatedAt }}
    >
      {/* Keyed by the saved version, so a save (or a colleague's) redraws the boxes. */}
      <Fields
        key={account.updatedAt}
        idPrefix={`account-${account.id}`}
        errors={mine?.errors}
        values={{ roles: account.roles }}
      >
        <CheckboxGroup name="roles" label={`Roles of ${account.email}`} options={ROLES} columns={2} />
      </Fields>
    </ConsoleForm>
  );
}

const column = createColumnHelper<StaffAccount>();
const columns = [
  column.accessor("email", { id: "email", header: "Email", enableSorting: true }),
  column.accessor("name", { id: "name", header: "Name", enableSorting: true }),
  column.accessor("createdAt", {
    id: "createdAt",
    header: "Signed up",
    enableSorting: true,
    cell: (c) => dateTime(c.getValue()),
  }),
  column.display({
    id: "roles",
    header: "Roles",
    cell: ({ row }) => <RoleForm account={row.original} />,
  }),
];

export default function UsersPage() {
  const { list, filter } = useLoaderData<typeof loader>();
  return (
    <section>
      <h1 className="mb-3 text-2xl font-semibold">Users</h1>
      <p className="mb-3 max-w-2xl text-sm text-slate-600">
        An admin may do everything; a moderator works the submission, review and inbox queues. A change applies from the
        account&apos;s next page or request. You cannot remove your own admin role, so the console always keeps an
        admin.
      </p>
      <Form method="get" role="search" className="mb-3 flex flex-wrap items-end gap-2">
        {filter.role && <input type="hidden" name="role" value={filter.role} />}
        <label className="text-sm">
          <span className="block font-medium text-slate-700">Email or name</span>
          <input
            type="search"
            name="search"
            defaultValue={filter.search ?? ""}
            maxLength={100}
            className="input mt-1"
          />
        </label>
        <button type="submit" className="btn-primary">
          Find
        </button>
      </Form>
      <FilterTabs label="Role" param="role" current={filter.role} options={ROLE_TABS} />
      <AdminTable
        caption="Accounts and their roles"
        testId="users-table"
        list={list}
        columns={columns}
        sort={filter}
        rowId={(u) => String(u.id)}
        empty="No account matches."
      />
    </section>
  );
}
