// The rules of the three lead forms (docs/product.md §5 messages), shared by the
// server and the browser. A module of their own, apart from the forms' labels and
// choices in leads.ts: pages import it lazily, so zod loads only when a visitor
// fills a form in (docs/decisions/0033).
import { z } from "zod";
import type { NetworkOptions } from "./networks.ts";
import {
  AD_BUDGETS,
  AD_PLACEMENTS,
  ADVERTISE_FIELDS,
  CONTACT_FIELDS,
  CONTACT_TOPICS,
  NETWORK_FIELDS,
} from "./leads.ts";
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
