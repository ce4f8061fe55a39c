// The operator console's contract: the list shape every /api/admin list answers,
// its paging, and the audit log's filter and rows.
import { z } from "zod";
import { integerField } from "./validation.ts";

/** Rows per page of every console list. */
export const ADMIN_PAGE_SIZE = 50;
/** Deepest page a console list serves (an offset past it costs more than it shows). */
export const ADMIN_MAX_PAGE = 1000;

/** Every console list answers this. */
export type AdminList<T> = { items: T[]; total: number; page: number; pageSize: number };

/** An integer query parameter that may be missing or empty. */
const optionalInteger = (field: string, min: number) =>
  z.preprocess((v) => (v === "" ? undefined : v), integerField(field, min).optional());

export const adminPage = optionalInteger("page", 1).transform((page) => Math.min(page ?? 1, ADMIN_MAX_PAGE));

const filterText = (field: string) =>
  z
    .string({ error: `${field} must be text` })
    .trim()
    .max(100, `${field} must be at most 100 characters long`)
    .optional()
    .transform((v) => v || undefined);

export const auditFilter = z.object({
  page: adminPage,
  action: filterText("action"),
  subjectType: filterText("subjectType"),
  actorId: optionalInteger("actorId", 1),
});
export type AuditFilter = z.output<typeof auditFilter>;

export type AuditEntry = {
  id: number;
  action: string;
  subjectType: string;
  subjectId: number | null;
  actorId: number | null;
  actorEmail: string | null;
  before: unknown;
  after: unknown;
  createdAt: string;
};
export type AuditPage = AdminList<AuditEntry>;

export const SORT_DIRECTIONS = ["asc", "desc"] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/**
 * A console list's order from its URL (`?sort=<column>&dir=asc|desc`): one of the
 * list's own sortable columns, else its default; an unknown value falls back
 * rather than refusing, so an old bookmark still opens.
 */
export function adminSort<const C extends readonly [string, ...string[]]>(columns: C, byDefault: C[number]) {
  return {
    sort: z.preprocess((v) => ((columns as readonly unknown[]).includes(v) ? v : byDefault), z.enum(columns)),
    dir: z.preprocess((v) => (v === "asc" ? "asc" : "desc"), z.enum(SORT_DIRECTIONS)),
  };
}
export type AdminSort<C extends string = string> = { sort: C; dir: SortDirection };
