// The console's queue of network submissions (/api/admin/submissions, docs/api.md):
// its statuses as the API names them, the list filter, the decisions' bodies and
// the rows the queue shows.
import { z } from "zod";
import { adminPage, adminSort, type AdminList } from "./admin.ts";
import type { NetworkSubmission } from "./lead-schemas.ts";
import { integerField, requiredText } from "./validation.ts";

/** A submission's status in the API; "new" is stored as 'pending'. */
export const SUBMISSION_STATUSES = ["new", "approved", "rejected", "duplicate"] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** Longest reason a rejection may give (it is mailed to the submitter). */
export const REJECT_REASON_MAX = 1000;

/** A record id: a positive integer within what the database and JavaScript both hold exactly. */
const recordId = (field: string) =>
  integerField(field, 1).refine((n) => Number.isSafeInteger(n), `${field} must be an integer`);

export const submissionFilter = z.object({
  page: adminPage,
  ...adminSort(["createdAt", "name", "status"], "createdAt"),
  status: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.enum(SUBMISSION_STATUSES, { error: `Status must be one of ${SUBMISSION_STATUSES.join(", ")}` }).optional(),
  ),
});
export type SubmissionFilter = z.output<typeof submissionFilter>;

export const submissionParams = z.object({ id: recordId("Submission") });

export const rejectSubmissionInput = z.object({ reason: requiredText("Reason", REJECT_REASON_MAX) });

export const duplicateSubmissionInput = z.object({ networkId: recordId("Network") });

/** What the form sent besides the name and address, as stored; older rows may lack fields. */
export type SubmissionDetails = Partial<Omit<NetworkSubmission, "networkName" | "email">> & {
  logo?: { width: number; height: number; frames: number; bytes: number };
};

export type SubmissionItem = {
  id: number;
  status: SubmissionStatus;
  /** The network's name as submitted. */
  name: string;
  email: string;
  details: SubmissionDetails;
  /** The uploaded logo, for the console only (moderators); null when none was stored. */
  logoUrl: string | null;
  reason: string | null;
  decidedBy: { id: number; email: string } | null;
  decidedAt: string | null;
  /** The listing it created or updated (approved) or duplicates (duplicate). */
  networkId: number | null;
  networkName: string | null;
  createdAt: string;
  updatedAt: string;
};
export type SubmissionPage = AdminList<SubmissionItem>;

/** What a decision answers: the submission as it now stands. */
export type SubmissionDecision = { submission: SubmissionItem };

/** The console's address of a submission's uploaded logo. */
export const submissionLogoPath = (id: number) => `/api/admin/submissions/${id}/logo`;
