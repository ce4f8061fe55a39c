// The mail a rejected submission sends to the address it gave. Like the lead
// confirmations (core/leads/mails.ts) it carries nothing the form sent: the
// address may not be the sender's own, so the mail holds our fixed words, our
// reference number and the moderator's reason only. Plain text.
import type { MailMessage } from "#core/mail/mailer.ts";

export function rejectionMail(to: string, submissionId: number, reason: string): MailMessage {
  return {
    to,
    subject: "About your network submission",
    text:
      `Hello,\n\n` +
      `Thank you for submitting an affiliate network to the OfferAtlas directory. Our team reviewed ` +
      `network submission #${submissionId} and is not able to list it at this time.\n\n` +
      `The reason our team gave:\n\n${reason}\n\n` +
      `If things change, you are welcome to submit the network again through the "Add your network" page.\n\n` +
      `If it was not you who sent the submission, you can ignore this message.\n\n` +
      `The OfferAtlas team\n`,
  };
}
