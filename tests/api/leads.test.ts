// Lead forms over the real app: add-your-network (multipart with a logo),
// advertisement-request and support/contact-us, and the network-options the
// first one offers. A submission is stored before any mail is tried, and a
// mail server that is down only delays the mail.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { LEAD_CONFIRMATIONS } from "#contracts/leads.ts";
import { LEAD_RATE_LIMIT } from "#core/leads/leads.ts";
import type { NetworkOptions } from "#contracts/networks.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { GOOD_LOGO, OVERSIZED_LOGO, SVG_LOGO, TEXT_AS_PNG, WRONG_SIZE_LOGO } from "../fixtures/images.ts";

let t: TestApp;
let dataDir: string;
let ipSeq = 0;
/** Each test its own client address, so the per-address rate limit never couples tests. */
const nextIp = () => `10.1.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "oa-leads-"));
  t = await createTestApp({ seed: { networks: 5, offers: 50, trafficSources: 2 }, env: { DATA_DIR: dataDir } });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

let options: NetworkOptions;

const networkFields = (o: NetworkOptions, overrides: Record<string, string | string[] | undefined> = {}) => ({
  networkName: "Acme Lead Network",
  website: "https://acme-leads.example.com",
  contactName: "Jane Smith",
  email: "jane@acme-leads.example.com",
  phone: "+1 555 010 2000",
  messenger: "@janesmith",
  description: "A CPA network with exclusive finance and insurance offers and weekly payments.",
  offerCount: "120",
  verticals: o.verticals.slice(0, 2),
  trackingPlatform: o.trackingPlatforms[0],
  paymentFrequency: o.paymentFrequencies[0],
  paymentMethods: o.paymentMethods.slice(0, 2),
  minimumPayment: "50",
  commissionTypes: o.commissionTypes.slice(0, 2),
  ...overrides,
});

async function multipart(
  fields: Record<string, string | string[] | undefined>,
  logo?: { name: string; bytes: Buffer; type?: string },
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) form.append(k, one);
  }
  if (logo) form.append("logo", new Blob([new Uint8Array(logo.bytes)], { type: logo.type ?? "image/png" }), logo.name);
  const req = new Request("http://localhost/", { method: "POST", body: form });
  return {
    payload: Buffer.from(await req.arrayBuffer()),
    headers: { "content-type": req.headers.get("content-type")! },
  };
}

async function submitNetwork(
  fields: Record<string, string | string[] | undefined>,
  logo?: { name: string; bytes: Buffer; type?: string },
  app = t,
) {
  const body = await multipart(fields, logo);
  return app.app.inject({ method: "POST", url: "/api/add-your-network", ...body, remoteAddress: nextIp() });
}

const submissionCount = async (db = t.db) =>
  (await db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM network_submissions`))[0].n;

describe("GET /api/network-options", () => {
  it("lists the choices of the add-your-network form, verticals from the directory", async () => {
    const res = await t.app.inject("/api/network-options");
    expect(res.statusCode).toBe(200);
    options = res.json();
    for (const key of [
      "verticals",
      "trackingPlatforms",
      "paymentFrequencies",
      "paymentMethods",
      "commissionTypes",
    ] as const) {
      expect(Array.isArray(options[key]), key).toBe(true);
      expect(options[key].length, key).toBeGreaterThan(1);
    }
    const names = await t.db.query<{ name: string }>(sql`SELECT name FROM categories`);
    expect(new Set(options.verticals)).toEqual(new Set(names.map((n) => n.name)));
  });
});

describe("POST /api/add-your-network", () => {
  beforeAll(async () => {
    options ??= (await t.app.inject("/api/network-options")).json();
  });

  it("stores a pending submission with the logo under DATA_DIR/uploads and mails the staff and the sender", async () => {
    const before = await t.db.query<{ id: number }>(sql`SELECT id FROM mail_outbox`);
    const res = await submitNetwork(networkFields(options), { name: "../../evil name.png", bytes: GOOD_LOGO() });
    expect(res.statusCode, res.body).toBe(201);
    const receipt = res.json();
    expect(receipt.message).toBe(LEAD_CONFIRMATIONS.network);

    const [row] = await t.db.query<{
      status: string;
      name: string;
      email: string;
      site_id: string;
      logo_path: string;
      details: Record<string, unknown>;
    }>(sql`SELECT status, name, email, site_id, logo_path, details FROM network_submissions WHERE id = ${receipt.id}`);
    expect(row).toMatchObject({
      status: "pending",
      name: "Acme Lead Network",
      email: "jane@acme-leads.example.com",
      site_id: "offeratlas",
    });
    expect(row.details).toMatchObject({
      website: "https://acme-leads.example.com",
      contactName: "Jane Smith",
      phone: "+15550102000",
      offerCount: 120,
      minimumPayment: 50,
      verticals: options.verticals.slice(0, 2),
      trackingPlatform: options.trackingPlatforms[0],
    });
    // The server names the file; the uploader's name (with its ../) plays no part.
    expect(row.logo_path).toMatch(/^uploads\/network-logos\/[0-9a-f-]{36}\.png$/);
    // What is stored is the decoded image written again (see tests/api/lead-hardening.test.ts): the same pixels.
    const stored = fs.readFileSync(path.join(dataDir, row.logo_path));
    expect((await sharp(stored).raw().toBuffer()).equals(await sharp(GOOD_LOGO()).raw().toBuffer())).toBe(true);
    expect(row.details.logo).toEqual({ width: 200, height: 200, frames: 1, bytes: stored.length });

    const mails = await t.db.query<{ recipient: string; subject: string; body_text: string }>(
      sql`SELECT recipient, subject, body_text FROM mail_outbox WHERE id > ${before.at(-1)?.id ?? 0} ORDER BY id`,
    );
    expect(mails.map((m) => m.recipient).sort()).toEqual([t.config.staffEmail, "jane@acme-leads.example.com"].sort());
    const staff = mails.find((m) => m.recipient === t.config.staffEmail)!;
    expect(staff.subject).toContain("Acme Lead Network");
    expect(staff.body_text).toContain("https://acme-leads.example.com");
    expect(staff.body_text).toContain(row.logo_path);
    // The sender's copy repeats nothing they typed (tests/api/lead-hardening.test.ts tries harder).
    const copy = mails.find((m) => m.recipient === "jane@acme-leads.example.com")!;
    expect(copy.subject).toBe("We received your network submission");
    expect(`${copy.subject}\n${copy.body_text}`).not.toMatch(/Acme|Jane|acme-leads/);
    expect(copy.body_text).toContain(`#${receipt.id}`);
  });

  it("refuses each bad logo with the exact spec message and stores nothing", async () => {
    const before = await submissionCount();
    const cases: [string, { name: string; bytes: Buffer; type?: string } | undefined, string][] = [
      ["text renamed to .png", { name: "logo.png", bytes: TEXT_AS_PNG() }, "Uploaded file is not a valid image"],
      [
        "SVG named .png",
        { name: "logo.png", bytes: SVG_LOGO(), type: "image/svg+xml" },
        "Uploaded file is not a valid image",
      ],
      [
        "SVG extension",
        { name: "logo.svg", bytes: SVG_LOGO(), type: "image/svg+xml" },
        "Invalid file extension. Expected: png, jpg, jpeg, gif, webp",
      ],
      [
        "PNG with a .txt name",
        { name: "logo.txt", bytes: GOOD_LOGO(), type: "text/plain" },
        "Invalid file extension. Expected: png, jpg, jpeg, gif, webp",
      ],
      ["over 500 KB", { name: "logo.png", bytes: OVERSIZED_LOGO() }, "File size must not exceed 500 KB"],
      ["320 × 100", { name: "logo.png", bytes: WRONG_SIZE_LOGO() }, "Invalid file dimensions. Expected: 200px X 200px"],
      ["missing", undefined, "Logo cannot be blank"],
    ];
    for (const [label, logo, message] of cases) {
      const res = await submitNetwork(networkFields(options), logo);
      expect(res.statusCode, label).toBe(400);
      expect(res.json(), label).toEqual({ message });
    }
    expect(await submissionCount()).toBe(before);
    expect(
      fs.existsSync(path.join(dataDir, "uploads", "network-logos"))
        ? fs.readdirSync(path.join(dataDir, "uploads", "network-logos")).length
        : 0,
    ).toBe(1);
  });

  it("answers the first invalid field with the spec's message", async () => {
    const cases: [Record<string, string | string[] | undefined>, string][] = [
      [{ networkName: "  " }, "Network Name cannot be blank"],
      [{ website: "not a site" }, "not a site is not a valid url"],
      [{ contactName: "Jane 2" }, "Contact Name can only contain alphabets and spaces"],
      [{ email: "jane@" }, "jane@ is not a valid email address"],
      [{ phone: "12ab" }, "12ab is not a valid phone number"],
      [{ description: "Too short." }, "Description must be at least 30 characters long"],
      [{ offerCount: "many" }, "Number of Offers must be an integer"],
      [{ offerCount: "-3" }, "Number of Offers must be greater than or equal to 0"],
      [{ verticals: undefined }, "Verticals cannot be blank"],
      [{ trackingPlatform: "Excel sheet" }, "Excel sheet is not valid"],
      [{ paymentMethods: ["PayPal", "Seashells"] }, "Seashells is not valid"],
      [{ minimumPayment: "1.5" }, "Minimum Payment must be an integer"],
    ];
    for (const [override, message] of cases) {
      const res = await submitNetwork(networkFields(options, override), { name: "logo.png", bytes: GOOD_LOGO() });
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toBe(message);
    }
  });

  it("accepts an empty phone and messenger (phone is optional, docs/product.md §5)", async () => {
    const res = await submitNetwork(networkFields(options, { phone: "", messenger: "" }), {
      name: "logo.webp.png",
      bytes: GOOD_LOGO(),
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it("refuses a JSON body, an unknown site and more than one file", async () => {
    const json = await t.app.inject({
      method: "POST",
      url: "/api/add-your-network",
      payload: { networkName: "x" },
      remoteAddress: nextIp(),
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toBe("Expected a multipart/form-data request");

    const unknown = await submitNetwork(networkFields(options, { site: "nosuchsite" }), {
      name: "logo.png",
      bytes: GOOD_LOGO(),
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe("Unknown site");

    const form = new FormData();
    for (const [k, v] of Object.entries(networkFields(options)))
      for (const one of [v].flat()) if (one) form.append(k, one);
    form.append("logo", new Blob([new Uint8Array(GOOD_LOGO())], { type: "image/png" }), "a.png");
    form.append("extra", new Blob([new Uint8Array(GOOD_LOGO())], { type: "image/png" }), "b.png");
    const req = new Request("http://localhost/", { method: "POST", body: form });
    const two = await t.app.inject({
      method: "POST",
      url: "/api/add-your-network",
      payload: Buffer.from(await req.arrayBuffer()),
      headers: { "content-type": req.headers.get("content-type")! },
      remoteAddress: nextIp(),
    });
    expect(two.statusCode).toBeGreaterThanOrEqual(400);
    expect(two.statusCode).toBeLessThan(500);
    expect(two.json().message).toBeTruthy();
  });
});

const advert = (overrides: Record<string, unknown> = {}) => ({
  name: "Sam Buyer",
  email: "sam@brand.example.com",
  company: "Brand Media Ltd",
  website: "brand.example.com",
  phone: "",
  placements: ["Banner ads", "Sponsored offers"],
  budget: "$1,000 - $5,000",
  message: "We would like the 728x90 header banner for a month.",
  ...overrides,
});

const contact = (overrides: Record<string, unknown> = {}) => ({
  name: "Alex Reader",
  email: "alex@example.org",
  topic: "Listing or offer correction",
  subject: "Wrong payout shown",
  message: "The payout on one of the finance offers looks outdated.",
  ...overrides,
});

describe("POST /api/advertisement-request/", () => {
  it("stores the request and mails sales and the sender", async () => {
    const [last] = await t.db.query<{ id: number }>(sql`SELECT coalesce(max(id), 0)::int AS id FROM mail_outbox`);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/advertisement-request/",
      payload: advert(),
      remoteAddress: nextIp(),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe(LEAD_CONFIRMATIONS.advertise);
    const [row] = await t.db.query<{ name: string; email: string; details: Record<string, unknown> }>(
      sql`SELECT name, email, details FROM advertisement_requests WHERE id = ${res.json().id}`,
    );
    expect(row).toMatchObject({ name: "Sam Buyer", email: "sam@brand.example.com" });
    expect(row.details).toMatchObject({
      company: "Brand Media Ltd",
      placements: ["Banner ads", "Sponsored offers"],
      budget: "$1,000 - $5,000",
    });
    const mails = await t.db.query<{ recipient: string; subject: string }>(
      sql`SELECT recipient, subject FROM mail_outbox WHERE id > ${last.id}`,
    );
    expect(mails.map((m) => m.recipient).sort()).toEqual(["sam@brand.example.com", t.config.staffEmail].sort());
  });

  it("answers bad fields with the spec's messages", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: "" }, "Name cannot be blank"],
      [{ email: "sam at brand" }, "sam at brand is not a valid email address"],
      [{ company: " " }, "Company cannot be blank"],
      [{ website: "http://" }, "http:// is not a valid url"],
      [{ phone: "555" }, "555 is not a valid phone number"],
      [{ placements: [] }, "Placements cannot be blank"],
      [{ budget: "a million" }, "a million is not valid"],
      [{ message: "" }, "Message cannot be blank"],
    ];
    for (const [override, message] of cases) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/advertisement-request",
        payload: advert(override),
        remoteAddress: nextIp(),
      });
      expect(res.statusCode, message).toBe(400);
      expect(res.json()).toEqual({ message });
    }
  });
});

describe("POST /api/support/contact-us/", () => {
  it("stores the message and mails support and the sender", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/support/contact-us/",
      payload: contact(),
      remoteAddress: nextIp(),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe(LEAD_CONFIRMATIONS.contact);
    const [row] = await t.db.query<{ name: string; subject: string; message: string }>(
      sql`SELECT name, subject, message FROM contact_messages WHERE id = ${res.json().id}`,
    );
    expect(row).toEqual({
      name: "Alex Reader",
      subject: "[Listing or offer correction] Wrong payout shown",
      message: contact().message,
    });
    const confirmation = await t.db.query<{ body_text: string }>(
      sql`SELECT body_text FROM mail_outbox WHERE recipient = 'alex@example.org'`,
    );
    expect(confirmation).toHaveLength(1);
    expect(confirmation[0].body_text).toContain(`#${res.json().id}`);
  });

  it("answers bad fields with the spec's messages", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: undefined }, "Name cannot be blank"],
      [{ name: "R2-D2" }, "Name can only contain alphabets and spaces"],
      [{ email: "" }, "Email cannot be blank"],
      [{ topic: "Other" }, "Other is not valid"],
      [{ subject: "" }, "Subject cannot be blank"],
      [{ message: "Hi" }, "Message must be at least 10 characters long"],
    ];
    for (const [override, message] of cases) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/support/contact-us",
        payload: contact(override),
        remoteAddress: nextIp(),
      });
      expect(res.statusCode, message).toBe(400);
      expect(res.json()).toEqual({ message });
    }
  });

  it("rate limits one client address, with Retry-After", async () => {
    const ip = "10.9.9.9";
    for (let i = 0; i < LEAD_RATE_LIMIT.limit; i++) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/support/contact-us",
        payload: contact({ message: "" }),
        remoteAddress: ip,
      });
      expect(res.statusCode).toBe(400);
    }
    const limited = await t.app.inject({
      method: "POST",
      url: "/api/support/contact-us",
      payload: contact(),
      remoteAddress: ip,
    });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(limited.json().message).toBeTruthy();
    // Another address is not affected.
    const other = await t.app.inject({
      method: "POST",
      url: "/api/support/contact-us",
      payload: contact(),
      remoteAddress: "10.9.9.10",
    });
    expect(other.statusCode).toBe(201);
  });
});

describe("with the anti-bot check on", () => {
  it("refuses a submission without a valid token and stores nothing", async () => {
    const guarded = await createTestApp({
      seed: false,
      env: {
        RECAPTCHA_SITE_KEY: "site-key",
        RECAPTCHA_SECRET_KEY: "secret",
        RECAPTCHA_VERIFY_URL: "http://127.0.0.1:9/verify",
      },
    });
    try {
      const res = await guarded.app.inject({
        method: "POST",
        url: "/api/support/contact-us",
        payload: contact(),
        remoteAddress: nextIp(),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/ReCaptcha/);
      const [{ n }] = await guarded.db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM contact_messages`);
      expect(n).toBe(0);
    } finally {
      await guarded.close();
    }
  });
});

describe("when the mail server is down", () => {
  it("keeps the submission, records the failed delivery, and delivers it later", async () => {
    const port = await closedPort();
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "oa-leads-smtp-"));
    const down = await createTestApp({ seed: false, env: { SMTP_URL: `smtp://127.0.0.1:${port}`, DATA_DIR: tmp } });
    try {
      const res = await down.app.inject({
        method: "POST",
        url: "/api/advertisement-request",
        payload: advert(),
        remoteAddress: nextIp(),
      });
      expect(res.statusCode, res.body).toBe(201);
      const [stored] = await down.db.query<{ id: number }>(
        sql`SELECT id FROM advertisement_requests WHERE id = ${res.json().id}`,
      );
      expect(stored).toBeDefined();
      const outbox = await down.db.query<{
        id: number;
        recipient: string;
        attempts: number;
        sent_at: Date | null;
        last_error: string | null;
      }>(sql`SELECT id, recipient, attempts, sent_at, last_error FROM mail_outbox ORDER BY id`);
      expect(outbox).toHaveLength(2);
      for (const m of outbox) {
        expect(m.attempts).toBeGreaterThanOrEqual(1);
        expect(m.sent_at).toBeNull();
        expect(m.last_error).toBeTruthy();
      }

      // The server comes back on the same address; the retry delivers both.
      const received: { to: string[]; data: string }[] = [];
      const smtp = new SMTPServer({
        authOptional: true,
        disabledCommands: ["STARTTLS"],
        logger: false,
        onData(stream, session, done) {
          let data = "";
          stream.on("data", (c: Buffer) => (data += c.toString()));
          stream.on("end", () => {
            received.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
            done();
          });
        },
      });
      await new Promise<void>((resolve) => smtp.listen(port, "127.0.0.1", resolve));
      try {
        await down.db.query(sql`UPDATE mail_outbox SET next_attempt_at = now() - interval '1 second'`);
        expect(await down.app.services.mail.deliverDue()).toBe(2);
        const after = await down.db.query<{ sent_at: Date | null }>(sql`SELECT sent_at FROM mail_outbox`);
        expect(after).toHaveLength(2);
        expect(after.every((m) => m.sent_at !== null)).toBe(true);
        expect(received.flatMap((r) => r.to).sort()).toEqual([down.config.staffEmail, "sam@brand.example.com"].sort());
        expect(received.find((r) => r.to.includes(down.config.staffEmail))!.data).toContain("Brand Media Ltd");
      } finally {
        await new Promise<void>((resolve) => smtp.close(() => resolve()));
      }
    } finally {
      await down.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
