// The console's inbox (/api/admin/inbox, docs/api.md): advertise requests and
// contact messages, each with a status, a note and the person handling it.
import { z } from "zod";
import { adminPage, adminSort, type AdminList } from "./admin.ts";
import { integerField } from "./validation.ts";

export const INBOX_KINDS = ["advertise", "contact"] as const;
export type InboxKind = (typeof INBOX_KINDS)[number];
export const INBOX_STATUSES = ["new", "in_progress", "done"] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];
/** Longest note the staff may keep on a message. */
export const INBOX_NOTE_MAX = 2000;

const optionalChoice = <T extends readonly [string, ...string[]]>(field: string, values: T) =>
  z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.enum(values, { error: `${field} must be one of ${values.join(", ")}` }).optional(),
  );

export const inboxFilter = z.object({
  page: adminPage,
  ...adminSort(["createdAt", "name", "status"], "createdAt"),
  kind: optionalChoice("kind", INBOX_KINDS),
  status: optionalChoice("status", INBOX_STATUSES),
});
export type InboxFilter = z.output<typeof inboxFilter>;

export const inboxParams = z.object({
  kind: z.enum(INBOX_KINDS, { error: "Not found" }),
  id: integerField("id", 1).refine((n) => Number.isSafeInteger(n), "Not found"),
});

/** An edit: any of status, note and handler, with the `updatedAt` the editor saw (a stale one answers 409). */
export const inboxUpdate = z.object({
  updatedAt: z.string({ error: "updatedAt is required" }).max(40, "updatedAt must be a date"),
  status: z.enum(INBOX_STATUSES, { error: `status must be one of ${INBOX_STATUSES.join(", ")}` }).optional(),
  note: z
    .string({ error: "note must be text" })
    .max(INBOX_NOTE_MAX, `note must be at most ${INBOX_NOTE_MAX} characters long`)
    .optional(),
  handledBy: z.union([integerField("handledBy", 1), z.null()]).optional(),
});

export type InboxItem = {
  kind: InboxKind;
  id: number;
  name: string;
  email: string;
  /** The contact message's subject, or the advertiser's company. */
  subject: string;
  message: string;
  details: Record<string, unknown>;
  status: InboxStatus;
  note: string;
  handledBy: { id: number; email: string } | null;
  createdAt: string;
  updatedAt: string;
};
export type InboxPage = AdminList<InboxItem>;
