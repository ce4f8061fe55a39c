// The mails a lead sends: one to the staff desk (STAFF_EMAIL, our own fixed
// address) with everything it needs to act, and one to the address the form
// gave, confirming we have it. Plain text only: no sender input ever reaches HTML.
//
// Anyone can type anyone's address into a form, so the confirmation is written
// for a reader who may never have asked: it carries NO text from the form (no
// names, no subject, no message, no choices), only our fixed words and the
// reference number we assigned. It cannot be used to send someone a message of
// the sender's making. The submitted details go to the staff desk only.
import type { AdvertisementRequest, ContactMessage, NetworkSubmission } from "#contracts/leads.ts";

export type LeadMail = {
  to: string;
  subject: string;
  text: string;
  /** The copy for the sender, written without their input. */ confirmation?: true;
};

type Row = [label: string, value: string | number | readonly string[] | undefined];

// Header injection is impossible (nodemailer encodes), but keep subjects on one short line.
const oneLine = (s: string) => s.replace(/[\r\n\t\u2028\u2029]+/g, " ");
const subjectLine = (s: string) => oneLine(s).slice(0, 120);

// One line per field: a value with line breaks cannot pass for another field of the staff mail.
const table = (rows: Row[]) =>
  rows
    .filter(([, v]) => v !== undefined && v !== "")
    .map(([label, v]) => `${label}: ${oneLine(Array.isArray(v) ? v.join(", ") : String(v))}`)
    .join("\n");

/** The confirmation every form sends to the address it was given: fixed text and our reference only. */
function confirmation(to: string, subject: string, what: string, next: string, reference: string): LeadMail {
  return {
    to,
    subject,
    confirmation: true,
    text:
      `Hello,\n\n` +
      `We received ${what} on the OfferAtlas website, and this email address was given as the contact for it. ${next}\n\n` +
      `Your reference: ${reference}.\n\n` +
      `If it was not you who sent it, you can ignore this message.\n\n` +
      `The OfferAtlas team\n`,
  };
}

export function networkMails(id: number, d: NetworkSubmission, staffEmail: string, logoPath: string): LeadMail[] {
  return [
    {
      to: staffEmail,
      subject: subjectLine(`New network submission #${id}: ${d.networkName}`),
      text: `A network asked to be listed. It is stored as pending submission #${id}.\n\n${table([
        ["Network name", d.networkName],
        ["Website", d.website],
        ["Contact name", d.contactName],
        ["Email", d.email],
        ["Phone", d.phone],
        ["Messenger", d.messenger],
        ["Number of offers", d.offerCount],
        ["Verticals", d.verticals],
        ["Tracking platform", d.trackingPlatform],
        ["Payment frequency", d.paymentFrequency],
        ["Payment methods", d.paymentMethods],
        ["Minimum payment", d.minimumPayment],
        ["Commission types", d.commissionTypes],
        ["Logo file", logoPath],
      ])}\n\nDescription:\n${d.description}\n`,
    },
    confirmation(
      d.email,
      "We received your network submission",
      "a request to list an affiliate network",
      "Our team reviews every network before it is listed; we will reply to this address, usually within five business days.",
      `network submission #${id}`,
    ),
  ];
}

export function advertiseMails(id: number, d: AdvertisementRequest, staffEmail: string): LeadMail[] {
  return [
    {
      to: staffEmail,
      subject: subjectLine(`Advertising request #${id}: ${d.company}`),
      text: `A new advertising request, stored as #${id}.\n\n${table([
        ["Name", d.name],
        ["Email", d.email],
        ["Company", d.company],
        ["Website", d.website],
        ["Phone", d.phone],
        ["Messenger", d.messenger],
        ["Placements", d.placements],
        ["Monthly budget", d.budget],
      ])}\n\nMessage:\n${d.message}\n`,
    },
    confirmation(
      d.email,
      "We received your advertising request",
      "a request to advertise",
      "Our sales team will contact you within two business days with availability and rates.",
      `advertising request #${id}`,
    ),
  ];
}

export function contactMails(id: number, d: ContactMessage, staffEmail: string): LeadMail[] {
  return [
    {
      to: staffEmail,
      subject: subjectLine(`Support #${id} [${d.topic}]: ${d.subject}`),
      text: `A new support message, stored as #${id}.\n\n${table([
        ["Name", d.name],
        ["Email", d.email],
        ["Topic", d.topic],
        ["Subject", d.subject],
      ])}\n\nMessage:\n${d.message}\n`,
    },
    confirmation(
      d.email,
      "We received your message",
      "a message for our support team",
      "We answer every message, usually within one business day.",
      `support request #${id}`,
    ),
  ];
}
