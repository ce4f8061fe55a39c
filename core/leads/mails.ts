// The mails a lead sends: one to the staff desk with everything it needs to
// act, one to the sender confirming we have it. Plain text only: no sender
// input ever reaches HTML.
import type { AdvertisementRequest, ContactMessage, NetworkSubmission } from "#contracts/leads.ts";

export type LeadMail = { to: string; subject: string; text: string };

type Row = [label: string, value: string | number | readonly string[] | undefined];

const table = (rows: Row[]) =>
  rows
    .filter(([, v]) => v !== undefined && v !== "")
    .map(([label, v]) => `${label}: ${Array.isArray(v) ? v.join(", ") : String(v)}`)
    .join("\n");

// Header injection is impossible (nodemailer encodes), but keep subjects on one short line.
const oneLine = (s: string) => s.replace(/[\r\n\t]+/g, " ").slice(0, 120);

export function networkMails(id: number, d: NetworkSubmission, staffEmail: string, logoPath: string): LeadMail[] {
  return [
    {
      to: staffEmail,
      subject: oneLine(`New network submission #${id}: ${d.networkName}`),
      text: `A network asked to be listed. It is stored as pending submission #${id}.\n\n${table([
        ["Network name", d.networkName], ["Website", d.website], ["Contact name", d.contactName], ["Email", d.email],
        ["Phone", d.phone], ["Messenger", d.messenger], ["Number of offers", d.offerCount], ["Verticals", d.verticals],
        ["Tracking platform", d.trackingPlatform], ["Payment frequency", d.paymentFrequency],
        ["Payment methods", d.paymentMethods], ["Minimum payment", d.minimumPayment],
        ["Commission types", d.commissionTypes], ["Logo file", logoPath],
      ])}\n\nDescription:\n${d.description}\n`,
    },
    {
      to: d.email,
      subject: oneLine(`We received your network submission: ${d.networkName}`),
      text: `Hello ${d.contactName},\n\nThank you for submitting ${d.networkName} to OfferAtlas. Our team reviews every network before it is listed; we will reply to this address, usually within five business days.\n\nYour reference: network submission #${id}.\n\nThe OfferAtlas team\n`,
    },
  ];
}

export function advertiseMails(id: number, d: AdvertisementRequest, staffEmail: string): LeadMail[] {
  return [
    {
      to: staffEmail,
      subject: oneLine(`Advertising request #${id}: ${d.company}`),
      text: `A new advertising request, stored as #${id}.\n\n${table([
        ["Name", d.name], ["Email", d.email], ["Company", d.company], ["Website", d.website], ["Phone", d.phone],
        ["Messenger", d.messenger], ["Placements", d.placements], ["Monthly budget", d.budget],
      ])}\n\nMessage:\n${d.message}\n`,
    },
    {
      to: d.email,
      subject: "We received your advertising request",
      text: `Hello ${d.name},\n\nThank you for your interest in advertising on OfferAtlas. Our sales team will contact you within two business days with availability and rates for: ${d.placements.join(", ")}.\n\nYour reference: advertising request #${id}.\n\nThe OfferAtlas team\n`,
    },
  ];
}

export function contactMails(id: number, d: ContactMessage, staffEmail: string): LeadMail[] {
  return [
    {
      to: staffEmail,
      subject: oneLine(`Support #${id} [${d.topic}]: ${d.subject}`),
      text: `A new support message, stored as #${id}.\n\n${table([
        ["Name", d.name], ["Email", d.email], ["Topic", d.topic], ["Subject", d.subject],
      ])}\n\nMessage:\n${d.message}\n`,
    },
    {
      to: d.email,
      subject: oneLine(`We received your message: ${d.subject}`),
      text: `Hello ${d.name},\n\nThank you for contacting OfferAtlas support. We answer every message, usually within one business day.\n\nYour reference: support request #${id}.\nYour message:\n${d.message}\n\nThe OfferAtlas team\n`,
    },
  ];
}
