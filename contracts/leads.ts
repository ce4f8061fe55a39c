// The three lead forms (add your network, advertise, contact support): their
// fields, labels, choices and logo rules, shared by the browser and the server.
// Their schemas are in lead-schemas.ts, which the browser loads only when a
// form is used (docs/decisions/0033).
import { messages } from "./messages.ts";

/**
 * Logo rules of the add-your-network form. A directory shows logos in a square
 * box, so we ask for exactly that square: no cropping or upscaling surprises.
 */
export const LOGO_RULES = {
  extensions: ["png", "jpg", "jpeg", "gif", "webp"],
  maxKb: 500,
  width: 200,
  height: 200,
} as const;

export const LOGO_MESSAGES = {
  imageFile: messages.imageFile(),
  extension: messages.fileExtension(LOGO_RULES.extensions),
  size: messages.fileSize(LOGO_RULES.maxKb),
  dimensions: messages.dimensions(LOGO_RULES.width, LOGO_RULES.height),
} as const;

/** The extension of a file name, lowercased, or "" when it has none. */
function fileExtension(filename: string): string {
  const m = /\.([A-Za-z0-9]+)$/.exec(filename.trim());
  return m ? m[1].toLowerCase() : "";
}

/** Checks a logo's name and size: what can be known before reading its bytes. */
export function checkLogoNameAndSize(filename: string, sizeBytes: number): string | undefined {
  if (!(LOGO_RULES.extensions as readonly string[]).includes(fileExtension(filename))) return LOGO_MESSAGES.extension;
  if (sizeBytes > LOGO_RULES.maxKb * 1024) return LOGO_MESSAGES.size;
  return undefined;
}

/** Checks measured dimensions against the rule. */
export const checkLogoDimensions = (width: number, height: number) =>
  width === LOGO_RULES.width && height === LOGO_RULES.height ? undefined : LOGO_MESSAGES.dimensions;

/** Anti-bot action names, one per form (reCAPTCHA v3 checks the token was made for it). */
export const LEAD_ACTIONS = { network: "add_your_network", advertise: "advertise", contact: "contact_us" } as const;

export const NETWORK_FIELDS = {
  networkName: "Network Name",
  website: "Website",
  contactName: "Contact Name",
  email: "Email",
  phone: "Phone",
  messenger: "Messenger",
  description: "Description",
  offerCount: "Number of Offers",
  verticals: "Verticals",
  trackingPlatform: "Tracking Platform",
  paymentFrequency: "Payment Frequency",
  paymentMethods: "Payment Methods",
  minimumPayment: "Minimum Payment",
  commissionTypes: "Commission Types",
  logo: "Logo",
  country: "Country",
} as const;

export const AD_PLACEMENTS = [
  "Banner ads",
  "Featured network listing",
  "Sponsored offers",
  "Newsletter",
  "Custom package",
] as const;
export const AD_BUDGETS = ["Under $1,000", "$1,000 - $5,000", "$5,000 - $20,000", "Over $20,000"] as const;

export const ADVERTISE_FIELDS = {
  name: "Name",
  email: "Email",
  company: "Company",
  website: "Website",
  phone: "Phone",
  messenger: "Messenger",
  placements: "Placements",
  budget: "Monthly Budget",
  message: "Message",
} as const;

export const CONTACT_TOPICS = [
  "General question",
  "Listing or offer correction",
  "Network review",
  "Account and login",
  "Report a problem",
] as const;

export const CONTACT_FIELDS = {
  name: "Name",
  email: "Email",
  topic: "Topic",
  subject: "Subject",
  message: "Message",
} as const;

/** What the three endpoints answer on success. */
export type LeadReceipt = { id: number; message: string };

export const LEAD_CONFIRMATIONS = {
  network:
    "Thank you! Your network was submitted and will be reviewed by our team. We sent a confirmation to your email.",
  advertise:
    "Thank you! Our sales team received your request and will contact you shortly. We sent a confirmation to your email.",
  contact: "Thank you! Your message was sent to our support team. We sent a confirmation to your email.",
} as const;

/** Field names whose values may repeat in a form post. */
export const MULTI_VALUE_FIELDS = new Set(["verticals", "paymentMethods", "commissionTypes", "placements"]);

/** Turns a FormData (browser or server) into the plain object the schemas read. */
export function formValues(form: FormData, skip: readonly string[] = []): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of form.entries()) {
    if (typeof value !== "string" || skip.includes(key)) continue;
    if (MULTI_VALUE_FIELDS.has(key)) out[key] = [...((out[key] as string[] | undefined) ?? []), value];
    else out[key] = value;
  }
  return out;
}
