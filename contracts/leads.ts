// The three lead forms (add your network, advertise, contact support): their
// fields, labels and rules, shared by the browser and the server so both show
// the very same docs/product.md §5 messages.
import { z } from "zod";
import type { NetworkOptions } from "./networks.ts";
import {
  alphaSpacesField,
  emailField,
  integerField,
  messages,
  optionalText,
  phoneField,
  requiredText,
  urlField,
} from "./validation.ts";

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

// Several values of one field arrive as an array (JSON) or as repeated form fields.
const list = (field: string, allowed: readonly string[], min = 1) =>
  z.preprocess(
    (v) => (v === undefined || v === null || v === "" ? [] : Array.isArray(v) ? v : [v]),
    z
      .array(z.string().trim(), { error: messages.required(field) })
      .superRefine((values, ctx) => {
        const bad = values.find((v) => !allowed.includes(v));
        if (bad !== undefined) ctx.addIssue({ code: "custom", message: messages.regex(bad) });
      })
      .refine((values) => values.length >= min, messages.required(field))
      .transform((values) => [...new Set(values)]),
  );

const choice = (field: string, allowed: readonly string[]) =>
  requiredText(field, 100).refine((v) => allowed.includes(v), { error: (i) => messages.regex(String(i.input)) });

/** One of `allowed`, or nothing: a select left on its empty first option. */
const optionalChoice = (field: string, allowed: readonly string[]) =>
  optionalText(field, 100).refine((v) => v === undefined || allowed.includes(v), {
    error: (i) => messages.regex(String(i.input)),
  });

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

/** The add-your-network fields (the logo is checked separately, from its bytes). */
export const networkSubmissionSchema = (options: NetworkOptions) =>
  z.object({
    networkName: requiredText(NETWORK_FIELDS.networkName, 120),
    website: urlField(NETWORK_FIELDS.website),
    country: optionalChoice(
      NETWORK_FIELDS.country,
      options.countries.map((c) => c.code),
    ),
    contactName: alphaSpacesField(NETWORK_FIELDS.contactName, 100),
    email: emailField(NETWORK_FIELDS.email),
    phone: phoneField(),
    messenger: optionalText(NETWORK_FIELDS.messenger, 100),
    description: requiredText(NETWORK_FIELDS.description, 5000).pipe(
      z.string().min(30, messages.minLength(NETWORK_FIELDS.description, 30)),
    ),
    offerCount: integerField(NETWORK_FIELDS.offerCount, 0),
    verticals: list(NETWORK_FIELDS.verticals, options.verticals),
    trackingPlatform: choice(NETWORK_FIELDS.trackingPlatform, options.trackingPlatforms),
    paymentFrequency: choice(NETWORK_FIELDS.paymentFrequency, options.paymentFrequencies),
    paymentMethods: list(NETWORK_FIELDS.paymentMethods, options.paymentMethods),
    minimumPayment: integerField(NETWORK_FIELDS.minimumPayment, 0),
    commissionTypes: list(NETWORK_FIELDS.commissionTypes, options.commissionTypes),
  });

export type NetworkSubmission = z.output<ReturnType<typeof networkSubmissionSchema>>;

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

export const advertisementRequestSchema = z.object({
  name: alphaSpacesField(ADVERTISE_FIELDS.name, 100),
  email: emailField(ADVERTISE_FIELDS.email),
  company: requiredText(ADVERTISE_FIELDS.company, 150),
  website: urlField(ADVERTISE_FIELDS.website),
  phone: phoneField(),
  messenger: optionalText(ADVERTISE_FIELDS.messenger, 100),
  placements: list(ADVERTISE_FIELDS.placements, AD_PLACEMENTS),
  budget: choice(ADVERTISE_FIELDS.budget, AD_BUDGETS),
  message: requiredText(ADVERTISE_FIELDS.message, 5000),
});

export type AdvertisementRequest = z.output<typeof advertisementRequestSchema>;

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

export const contactMessageSchema = z.object({
  name: alphaSpacesField(CONTACT_FIELDS.name, 100),
  email: emailField(CONTACT_FIELDS.email),
  topic: choice(CONTACT_FIELDS.topic, CONTACT_TOPICS),
  subject: requiredText(CONTACT_FIELDS.subject, 200),
  message: requiredText(CONTACT_FIELDS.message, 5000).pipe(
    z.string().min(10, messages.minLength(CONTACT_FIELDS.message, 10)),
  ),
});

export type ContactMessage = z.output<typeof contactMessageSchema>;

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
