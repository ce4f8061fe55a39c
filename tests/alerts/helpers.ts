// What the alert tests share: offers made and changed through the console editor
// (which records offer_history, as a sync does), saved searches through the API,
// the outbox read back, and a clock far enough ahead that every alert made during
// the run counts as made before it.
import { expect } from "vitest";
import { sql } from "#db/client.ts";
import type { AdminOffer } from "#contracts/offers.ts";
import type { SavedSearch } from "#contracts/saved-searches.ts";
import { DIGEST_HOUR_UTC } from "#core/alerts/schedule.ts";
import type { TestApp } from "../helpers/app.ts";
import type { signInWithRoles } from "../helpers/staff.ts";

export type Account = Awaited<ReturnType<typeof signInWithRoles>>;

const DAY = 86_400_000;

/** A Monday at the digest hour, at least eight days from now. */
export function aMondayAhead(): Date {
  const d = new Date(Date.now() + 8 * DAY);
  d.setUTCHours(DIGEST_HOUR_UTC, 0, 0, 0);
  while (d.getUTCDay() !== 1) d.setTime(d.getTime() + DAY);
  return d;
}
export const plus = (d: Date, ms: number) => new Date(d.getTime() + ms);
export const HOUR = 3_600_000;
export { DAY };

export function offerTools(t: TestApp, admin: Account) {
  const actor = () => ({ siteId: t.config.siteId, userId: admin.user.id });
  const editor = () => t.app.services.offers.editor;
  return {
    async create(fields: { name: string; networkId: number; payoutAmount: number; countries?: string[] }) {
      return editor().create(actor(), { payoutType: "CPA", currency: "USD", countries: [], ...fields });
    },
    async update(id: number, change: Partial<AdminOffer>) {
      const offer = await editor().get(String(id));
      return editor().update(actor(), String(id), { ...offer, ...change });
    },
    async retire(id: number) {
      const offer = await editor().get(String(id));
      return editor().retire(actor(), String(id), { updatedAt: offer.updatedAt });
    },
  };
}

export async function saveSearch(t: TestApp, account: Account, payload: Record<string, unknown>) {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/account/saved-searches",
    headers: account.headers,
    payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<SavedSearch>();
}

export type StoredMail = { id: number; subject: string; text: string; headers: Record<string, string> };

/** The mails in the outbox for an address, oldest first. */
export const mailsTo = (t: TestApp, email: string) =>
  t.db.query<StoredMail>(sql`
    SELECT id, subject, body_text AS text, headers FROM mail_outbox WHERE recipient = ${email} ORDER BY id`);

/** The token at the end of an unsubscribe link. */
export const tokenOf = (url: string) => /\/unsubscribe\/([A-Za-z0-9_-]+)/.exec(url)?.[1] ?? "";
