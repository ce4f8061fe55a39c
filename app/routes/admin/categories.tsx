// /admin/categories: the queue of platform categories (issue #13). Each category
// name a platform sends waits here, unmapped, until an admin maps it to one of the
// directory's verticals (or makes a new vertical from it); a mapping reaches the
// offers at their source's next sync, and the change makes those sources due now.
import { useMemo } from "react";
import { useLoaderData } from "react-router";
import { createColumnHelper } from "@tanstack/react-table";
import {
  PLATFORM_CATEGORY_VIEWS,
  VERTICAL_NAME_MAX,
  platformCategoryFilter,
  type PlatformCategory,
  type PlatformCategoryChange,
} from "#contracts/platform-categories.ts";
import { SOURCE_PLATFORMS } from "#contracts/supply.ts";
import { AdminTable, FilterTabs, ListSearch, filterOptions } from "#app/ui/admin/AdminTable.tsx";
import { ActionNotice, ConsoleForm } from "#app/ui/admin/ConsoleForm.tsx";
import { dateTime } from "#app/ui/admin/format.ts";
import { TextField } from "#app/ui/form/Fields.tsx";
import { consoleAction, queryOf, requireStaff } from "./staff.server";
import type { Route } from "./+types/categories";
import { consoleMeta } from "./console-meta";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "Platform categories");

export async function loader(args: Route.LoaderArgs) {
  const { services } = requireStaff(args, "admin");
  const filter = queryOf(args.request, platformCategoryFilter);
  const [list, verticals] = await Promise.all([
    services.platformCategories.list(filter),
    services.platformCategories.verticalChoices(),
  ]);
  return { list, filter, verticals };
}

/** What a change says: where the category points now and which sources bring it to the offers. */
function confirmation({ category, changed, sourcesDue }: PlatformCategoryChange, unchanged: string) {
  if (!changed) return unchanged;
  const what = category.vertical
    ? `${category.name} (${category.platform}) now maps to ${category.vertical.name}.`
    : `${category.name} (${category.platform}) is unmapped.`;
  const sources = sourcesDue === 1 ? "1 enabled source" : `${sourcesDue} enabled sources`;
  return `${what} ${sources} of ${category.platform} will sync soon and update their offers.`;
}

export async function action(args: Route.ActionArgs) {
  return consoleAction(args, "admin", ["categoryId", "name"], {
    map: async (values, { services, site, user }) => {
      const change = await services.platformCategories.map({ siteId: site.id, userId: user.id }, values.id, {
        // The form's empty choice is "no vertical chosen", not "unmap".
        categoryId: values.categoryId === "" ? undefined : values.categoryId,
      });
      return confirmation(change, "Already mapped to that vertical.");
    },
    unmap: async (values, { services, site, user }) => {
      const change = await services.platformCategories.map({ siteId: site.id, userId: user.id }, values.id, {
        categoryId: null,
      });
      return confirmation(change, "Already unmapped.");
    },
    vertical: async (values, { services, site, user }) => {
      const created = await services.platformCategories.createVertical(
        { siteId: site.id, userId: user.id },
        values.id,
        { name: values.name },
      );
      return `Vertical ${created.vertical.name} created. ${confirmation(created, "")}`.trim();
    },
  });
}

const VIEW_LABELS: Record<string, string> = { unmapped: "Unmapped", mapped: "Mapped", all: "All" };

const column = createColumnHelper<PlatformCategory>();

function columnsFor(verticals: { id: number; name: string }[]) {
  return [
    column.accessor("name", {
      id: "name",
      header: "Category",
      enableSorting: true,
      cell: ({ getValue }) => (
        <span className="font-medium" data-testid="platform-category-name">
          {getValue()}
        </span>
      ),
    }),
    column.accessor("platform", {
      id: "platform",
      header: "Platform",
      enableSorting: true,
      cell: ({ row, getValue }) => (
        <>
          {getValue()}
          <span className="block text-xs text-slate-500">
            {row.original.enabledSources === 1 ? "1 enabled source" : `${row.original.enabledSources} enabled sources`}
          </span>
        </>
      ),
    }),
    column.accessor("firstSeen", {
      id: "firstSeen",
      header: "First seen",
      enableSorting: true,
      cell: (c) => dateTime(c.getValue()),
    }),
    column.accessor((c) => c.vertical?.name ?? null, {
      id: "vertical",
      header: "Vertical",
      enableSorting: true,
      cell: ({ row }) => {
        const c = row.original;
        return (
          <div className="min-w-56 space-y-2">
            <p data-testid="platform-category-vertical">
              {c.vertical ? c.vertical.name : <span className="text-slate-500">Not mapped</span>}
            </p>
            <ConsoleForm intent="map" recordId={c.id} submitLabel="Map" tone="plain">
              <label className="block text-sm">
                <span className="sr-only">Vertical for {c.name}</span>
                <select name="categoryId" required defaultValue={c.vertical?.id ?? ""} className="input">
                  <option value="">Choose a vertical</option>
                  {verticals.map((v) => (
                    <option key={v.id} value={v.id}>
                      {v.name}
                    </option>
                  ))}
                </select>
              </label>
            </ConsoleForm>
            {c.vertical && <ConsoleForm intent="unmap" recordId={c.id} submitLabel="Unmap" tone="plain" />}
          </div>
        );
      },
    }),
    column.display({
      id: "newVertical",
      header: "New vertical",
      cell: ({ row }) => (
        <div className="min-w-48">
          <ConsoleForm
            intent="vertical"
            recordId={row.original.id}
            submitLabel="New vertical from this name"
            tone="plain"
            defaults={{ name: row.original.name }}
          >
            <TextField name="name" label="Name" required maxLength={VERTICAL_NAME_MAX} />
          </ConsoleForm>
        </div>
      ),
    }),
  ];
}

export default function PlatformCategoriesPage() {
  const { list, filter, verticals } = useLoaderData<typeof loader>();
  const columns = useMemo(() => columnsFor(verticals), [verticals]);
  return (
    <section>
      <h1 className="mb-3 text-2xl font-semibold">Platform categories</h1>
      <p className="mb-3 max-w-3xl text-sm text-slate-600">
        Every category a platform sends waits here until it is mapped to a vertical; offers get only mapped verticals. A
        mapping applies at each source&apos;s next sync: a change makes the enabled sources of that platform due now, so
        their offers are updated within minutes.
      </p>
      <ActionNotice />
      <FilterTabs
        label="Mapping"
        param="view"
        current={filter.view === "unmapped" ? undefined : filter.view}
        options={PLATFORM_CATEGORY_VIEWS.map((view) => ({
          value: view === "unmapped" ? undefined : view,
          label: VIEW_LABELS[view],
        }))}
      />
      <FilterTabs
        label="Platform"
        param="platform"
        current={filter.platform}
        options={filterOptions("Every platform", SOURCE_PLATFORMS)}
      />
      <ListSearch
        label="Search platform categories"
        value={filter.search}
        keep={{ view: filter.view === "unmapped" ? undefined : filter.view, platform: filter.platform }}
        placeholder="Category name"
      />
      <AdminTable
        caption="Platform categories"
        testId="platform-categories-table"
        list={list}
        columns={columns}
        sort={filter}
        rowId={(c) => c.id}
        empty={filter.view === "unmapped" ? "No category waits for a mapping." : "No platform categories match."}
      />
    </section>
  );
}
