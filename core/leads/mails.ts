// The mails a lead sends: one to the staff desk (STAFF_EMAIL, our own fixed
// address) with everything it needs to act, and one to the address the form
// gave, confirming we have it. Plain text only: no sender input ever reaches HTML.
//
// Anyone can type anyone's address into a form, so the confirmation is written
// for a reader who may never have asked: it carries NO text from the form (no
// names, no subject, no message, no choices), only our fixed words and the
// reference number we assigned. It cannot be used to send someone a message of
// the sender's making. The submitted details go to the staff desk only.
import { ADVERTISE_FIELDS, CONTACT_FIELDS, NETWORK_FIELDS } from "#contracts/leads.ts";
import type { AdvertisementRequest, ContactMessage, NetworkSubmission } from "#contracts/lead-schemas.ts";

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

type LeadForm = "network" | "advertise" | "contact";

/** What the staff mail of a form is made of. */
type StaffMail = {
  /** The form's labels (contracts/leads.ts): in their order and in sentence case, one line per field. */
  labels: Readonly<Record<string, string>>;
  /** The free-text field, last, under its own label. */
  text: string;
  /** The mail's first line. */
  intro(id: number): string;
};

const STAFF_MAILS: Record<LeadForm, StaffMail> = {
  network: {
    labels: { ...NETWORK_FIELDS, logo: "Logo file" },
    text: "description",
    intro: (id) => `A network asked to be listed. It is stored as pending submission #${id}.`,
  },
  advertise: {
    labels: ADVERTISE_FIELDS,
    text: "message",
    intro: (id) => `A new advertising request, stored as #${id}.`,
  },
  contact: {
    labels: CONTACT_FIELDS,
    text: "message",
    intro: (id) => `A new support message, stored as #${id}.`,
  },
};

/** Each form's confirmation: what we received, what happens next, and what the reference number names. */
const CONFIRMATIONS: Record<LeadForm, { subject: string; what: string; next: string; reference: string }> = {
  network: {
    subject: "We received your network submission",
    what: "a request to list an affiliate network",
    next: "Our team reviews every network before it is listed; we will reply to this address, usually within five business days.",
    reference: "network submission",
  },
  advertise: {
    subject: "We received your advertising request",
    what: "a request to advertise",
    next: "Our sales team will contact you within two business days with availability and rates.",
    reference: "advertising request",
  },
  contact: {
    subject: "We received your message",
    what: "a message for our support team",
    next: "We answer every message, usually within one business day.",
    reference: "support request",
  },
};

const sentenceCase = (label: string) => label[0] + label.slice(1).toLowerCase();

/** The two mails of lead `id` of `form`: the staff desk's, with everything sent, and the sender's confirmation. */
function leadMails(
  form: LeadForm,
  id: number,
  d: Readonly<Record<string, Row[1]>> & { email: string },
  staffEmail: string,
  staffSubject: string,
): LeadMail[] {
  const { labels, text, intro } = STAFF_MAILS[form];
  const { subject, what, next, reference } = CONFIRMATIONS[form];
  const fields = Object.entries(labels).filter(([key]) => key !== text);
  const rows = fields.map(([key, label]): Row => [sentenceCase(label), d[key]]);
  return [
    {
      to: staffEmail,
      subject: subjectLine(staffSubject),
      text: `${intro(id)}\n\n${table(rows)}\n\n${labels[text]}:\n${String(d[text])}\n`,
    },
    confirmation(d.email, subject, what, next, `${reference} #${id}`),
  ];
}

export function networkMails(id: number, d: NetworkSubmission, staffEmail: string, logoPath: string): LeadMail[] {
  const subject = `New network submission #${id}: ${d.networkName}`;
  return leadMails("network", id, { ...d, logo: logoPath }, staffEmail, subject);
}

export function advertiseMails(id: number, d: AdvertisementRequest, staffEmail: string): LeadMail[] {
  return leadMails("advertise", id, d, staffEmail, `Advertising request #${id}: ${d.company}`);
}

export function contactMails(id: number, d: ContactMessage, staffEmail: string): LeadMail[] {
  return leadMails("contact", id, d, staffEmail, `Support #${id} [${d.topic}]: ${d.subject}`);
}
