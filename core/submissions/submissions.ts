// The console's queue of network submissions: list one site's submissions, and
// decide a new one: approve (the listing is created or updated, see listing.ts),
// reject with a reason (mailed to the submitter), or mark it as a duplicate of a
// network. A decision, its listing and its audit row are one transaction, and only
// a submission still new can be decided: two moderators deciding at once get one
// success and one 409.
import { z } from "zod";
import { sql, type Database, type Queryable, type SQL } from "#db/client.ts";
import { allOf, listPage, orderBy } from "#db/listing.ts";
import {
  duplicateSubmissionInput,
  rejectSubmissionInput,
  submissionLogoPath,
  submissionParams,
  type SubmissionDecision,
  type SubmissionDetails,
  type SubmissionFilter,
  type SubmissionItem,
  type SubmissionPage,
  type SubmissionStatus,
} from "#contracts/submissions.ts";
import { recordAudit } from "#core/audit/audit.ts";
import { HttpError, notFound } from "#core/errors.ts";
import type { MailMessage } from "#core/mail/mailer.ts";
import { listSubmittedNetwork } from "./listing.ts";
import { rejectionMail } from "./mails.ts";
import { publishLogo, readUploadedLogo, unpublishLogo, type LogoFile } from "./media.ts";

export type SubmissionDeps = {
  db: Database;
  /** Uploaded logos live under it; approved ones are copied under it for the public. */
  dataDir: string;
  mail: { send(message: MailMessage): Promise<void> };
  log?: { warn(msg: string): void };
};

/** Who decides, and on which site's console. */
export type Moderator = { siteId: string; userId: number };

type StoredStatus = "pending" | "approved" | "rejected" | "duplicate";
const toApiStatus = (s: StoredStatus): SubmissionStatus => (s === "pending" ? "new" : s);
const toStoredStatus = (s: SubmissionStatus): StoredStatus => (s === "new" ? "pending" : s);

const ALREADY: Record<Exclude<StoredStatus, "pending">, string> = {
  approved: "This submission was already approved",
  rejected: "This submission was already rejected",
  duplicate: "This submission was already marked as a duplicate",
};
const alreadyDecided = (status: Exclude<StoredStatus, "pending">) => new HttpError(409, ALREADY[status]);

const SUBMISSION_NOT_FOUND = "Submission not found";

/** The queue's sortable columns (contracts/submissions.ts names them). */
const SORTABLE = { createdAt: sql`s.created_at`, name: sql`lower(s.name)`, status: sql`s.status` };
/** A slow mail server must not hold the moderator: delivery goes on in the background (the outbox retries). */
const MAIL_WAIT_MS = 5_000;
const SUBJECT = "network_submission";

type Row = Omit<SubmissionItem, "status" | "logoUrl" | "decidedBy"> & {
  status: StoredStatus;
  logoPath: string | null;
  decidedById: number | null;
  decidedByEmail: string | null;
};

const at = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const SELECT_ROWS = sql`
  SELECT s.id, s.status, s.name, s.email, s.details, s.logo_path AS "logoPath", s.reason,
         s.decided_by AS "decidedById", u.email AS "decidedByEmail", ${at(sql`s.decided_at`)} AS "decidedAt",
         s.network_id AS "networkId", n.name AS "networkName",
         ${at(sql`s.created_at`)} AS "createdAt", ${at(sql`s.updated_at`)} AS "updatedAt"
  FROM network_submissions s
  LEFT JOIN users u ON u.id = s.decided_by
  LEFT JOIN networks n ON n.id = s.network_id`;

function toItem(r: Row): SubmissionItem {
  const { logoPath, decidedById, decidedByEmail, status, ...rest } = r;
  return {
    ...rest,
    status: toApiStatus(status),
    logoUrl: logoPath ? submissionLogoPath(r.id) : null,
    decidedBy: decidedById !== null ? { id: decidedById, email: decidedByEmail ?? "" } : null,
  };
}

/** A path id that is not an id names no submission: 404, as for every record in the API. */
function parseId(id: unknown): number {
  const parsed = submissionParams.safeParse({ id });
  if (!parsed.success) throw notFound(SUBMISSION_NOT_FOUND);
  return parsed.data.id;
}

type Claimed = { id: number; name: string; email: string; details: SubmissionDetails; logo_path: string | null };

/**
 * Decides submission `id` if it is still new: one conditional UPDATE, so of two moderators deciding at
 * once exactly one changes the row. Answers the claimed row; 404 when the site has no such submission,
 * 409 when it was decided already.
 */
async function claim(tx: Queryable, by: Moderator, id: number, decision: SQL): Promise<Claimed> {
  const [row] = await tx.query<Claimed>(sql`
    UPDATE network_submissions
    SET ${decision}, decided_by = ${by.userId}, decided_at = now(), updated_at = now()
    WHERE id = ${id} AND site_id = ${by.siteId} AND status = 'pending'
    RETURNING id, name, email, details, logo_path`);
  if (row) return row;
  await assertNew(tx, by, id);
  // Still new, yet the update missed it: only a change between the two statements does that.
  throw new HttpError(409, "This submission changed meanwhile; please reload it");
}

/** 404 when the site has no submission `id`, 409 when it was decided already. */
async function assertNew(tx: Queryable, by: Moderator, id: number): Promise<void> {
  const [current] = await tx.query<{ status: StoredStatus }>(
    sql`SELECT status FROM network_submissions WHERE id = ${id} AND site_id = ${by.siteId}`,
  );
  if (!current) throw notFound(SUBMISSION_NOT_FOUND);
  if (current.status !== "pending") throw alreadyDecided(current.status);
}

export function createSubmissionService(deps: SubmissionDeps) {
  const { db, dataDir } = deps;

  async function item(siteId: string, id: number): Promise<Row | undefined> {
    const [row] = await db.query<Row>(sql`${SELECT_ROWS} WHERE s.id = ${id} AND s.site_id = ${siteId}`);
    return row;
  }

  async function decided(siteId: string, id: number): Promise<SubmissionDecision> {
    const row = await item(siteId, id);
    if (!row) throw notFound(SUBMISSION_NOT_FOUND);
    return { submission: toItem(row) };
  }

  /** Queues the mail after the decision is committed; waits a little, never fails the request. */
  async function mailSubmitter(id: number, message: MailMessage) {
    const sending = deps.mail
      .send(message)
      .catch((err: unknown) => deps.log?.warn(`rejection mail of submission #${id} not queued: ${String(err)}`));
    await Promise.race([sending, new Promise((resolve) => setTimeout(resolve, MAIL_WAIT_MS).unref())]);
  }

  return {
    /** One page of the site's submissions (newest first unless sorted), optionally of one status. */
    async list(siteId: string, filter: SubmissionFilter): Promise<SubmissionPage> {
      const where = allOf(
        sql`s.site_id = ${siteId}`,
        filter.status ? sql`s.status = ${toStoredStatus(filter.status)}` : undefined,
      );
      const list = await listPage(
        db,
        filter.page,
        (limit) => db.query<Row>(sql`${SELECT_ROWS} WHERE ${where} ${orderBy(filter, SORTABLE, sql`s.id`)} ${limit}`),
        sql`SELECT count(*)::int AS total FROM network_submissions s WHERE ${where}`,
      );
      return { ...list, items: list.items.map(toItem) };
    },

    /** One of the site's submissions, as the console's detail page shows it. */
    async get(siteId: string, rawId: unknown): Promise<SubmissionItem> {
      const row = await item(siteId, parseId(rawId));
      if (!row) throw notFound(SUBMISSION_NOT_FOUND);
      return toItem(row);
    },

    /** The logo a submission uploaded (the console shows it before anything is public). */
    async uploadedLogo(siteId: string, rawId: unknown): Promise<LogoFile> {
      const row = await item(siteId, parseId(rawId));
      const logo = row ? await readUploadedLogo(dataDir, row.logoPath) : null;
      if (!logo) throw notFound(row ? "This submission has no logo" : SUBMISSION_NOT_FOUND);
      return logo;
    },

    /**
     * Approves a new submission: its network is created (or the one it matches updated) with the
     * logo copied to its public address, listed on the submission's site, and the submission
     * points at it; one transaction with the audit row.
     */
    async approve(by: Moderator, rawId: unknown): Promise<SubmissionDecision> {
      const id = parseId(rawId);
      const current = await item(by.siteId, id);
      if (!current) throw notFound(SUBMISSION_NOT_FOUND);
      if (current.status !== "pending") throw alreadyDecided(current.status);
      // Copied before the transaction (a file is no part of it) and removed again if the decision is not kept.
      const logoUrl = await publishLogo(dataDir, current.logoPath);
      try {
        await db.transaction(async (tx) => {
          const claimed = await claim(tx, by, id, sql`status = 'approved'`);
          const network = await listSubmittedNetwork(tx, {
            name: claimed.name,
            details: claimed.details,
            siteId: by.siteId,
            logoUrl,
          });
          await tx.query(sql`UPDATE network_submissions SET network_id = ${network.after.id} WHERE id = ${id}`);
          await recordAudit(tx, {
            siteId: by.siteId,
            actorId: by.userId,
            action: "submission.approve",
            subjectType: SUBJECT,
            subjectId: id,
            before: { status: "new", networkId: null, network: network.before },
            after: { status: "approved", networkId: network.after.id, network: network.after },
          });
        });
      } catch (err) {
        await unpublishLogo(dataDir, logoUrl);
        throw err;
      }
      return decided(by.siteId, id);
    },

    /** Rejects a new submission with a reason, then mails the reason to the address it gave. */
    async reject(by: Moderator, rawId: unknown, input: unknown): Promise<SubmissionDecision> {
      const id = parseId(rawId);
      const { reason } = rejectSubmissionInput.parse(input ?? {});
      const email = await db.transaction(async (tx) => {
        const claimed = await claim(tx, by, id, sql`status = 'rejected', reason = ${reason}`);
        await recordAudit(tx, {
          siteId: by.siteId,
          actorId: by.userId,
          action: "submission.reject",
          subjectType: SUBJECT,
          subjectId: id,
          before: { status: "new", reason: null },
          after: { status: "rejected", reason },
        });
        return claimed.email;
      });
      await mailSubmitter(id, rejectionMail(email, id, reason));
      return decided(by.siteId, id);
    },

    /** Marks a new submission as a duplicate of an existing network. */
    async markDuplicate(by: Moderator, rawId: unknown, input: unknown): Promise<SubmissionDecision> {
      const id = parseId(rawId);
      const { networkId } = duplicateSubmissionInput.parse(input ?? {});
      await db.transaction(async (tx) => {
        const [network] = await tx.query<{ name: string }>(
          sql`SELECT name FROM networks WHERE id = ${networkId} FOR SHARE`,
        );
        if (!network) {
          // An unknown or decided submission answers 404 or 409 whatever network it names.
          await assertNew(tx, by, id);
          throw new z.ZodError([
            { code: "custom", path: ["networkId"], message: "No network has this id", input: networkId },
          ]);
        }
        await claim(tx, by, id, sql`status = 'duplicate', network_id = ${networkId}`);
        await recordAudit(tx, {
          siteId: by.siteId,
          actorId: by.userId,
          action: "submission.duplicate",
          subjectType: SUBJECT,
          subjectId: id,
          before: { status: "new", networkId: null },
          after: { status: "duplicate", networkId, networkName: network.name },
        });
      });
      return decided(by.siteId, id);
    },
  };
}
