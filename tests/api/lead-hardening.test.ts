// Lead forms under attack, over the real app: hostile logos (polyglots, a
// decompression bomb, a bare WebP header, EXIF), broken multipart bodies, and
// the confirmation mail as a relay (someone else's address, the sender's text).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { LOGO_MESSAGES } from "#contracts/leads.ts";
import { CONFIRMATION_RATE_LIMIT } from "#core/leads/leads.ts";
import { MALFORMED_MULTIPART } from "#server/api/leads.ts";
import type { NetworkOptions } from "#contracts/networks.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  EXIF_SECRET,
  GOOD_LOGO,
  makeGifJsPolyglot,
  makeJpegWithExif,
  makePngBomb,
  PNG_HTML_POLYGLOT,
  webpHeaderOnly,
} from "../fixtures/images.ts";

let t: TestApp;
let dataDir: string;
let ipSeq = 0;
/** Each request its own client address, so the per-address rate limit never couples tests. */
const nextIp = () => `10.2.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

let options: NetworkOptions;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "oa-lead-hardening-"));
  t = await createTestApp({ seed: { networks: 5, offers: 20, trafficSources: 2 }, env: { DATA_DIR: dataDir } });
  options = (await t.app.inject("/api/network-options")).json();
});
afterAll(async () => {
  await t?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const networkFields = (overrides: Record<string, string | string[]> = {}) => ({
  networkName: "Acme Lead Network",
  website: "https://acme-leads.example.com",
  contactName: "Jane Smith",
  email: "jane@hardening.example.com",
  phone: "+1 555 010 2000",
  messenger: "@janesmith",
  description: "A CPA network with exclusive finance and insurance offers and weekly payments.",
  offerCount: "120",
  verticals: options.verticals.slice(0, 2),
  trackingPlatform: options.trackingPlatforms[0],
  paymentFrequency: options.paymentFrequencies[0],
  paymentMethods: options.paymentMethods.slice(0, 2),
  minimumPayment: "50",
  commissionTypes: options.commissionTypes.slice(0, 2),
  ...overrides,
});

async function submitNetwork(logo: { name: string; bytes: Buffer }, overrides: Record<string, string | string[]> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(networkFields(overrides))) for (const one of [v].flat()) form.append(k, one);
  form.append("logo", new Blob([new Uint8Array(logo.bytes)], { type: "image/png" }), logo.name);
  const req = new Request("http://localhost/", { method: "POST", body: form });
  return t.app.inject({
    method: "POST",
    url: "/api/add-your-network",
    payload: Buffer.from(await req.arrayBuffer()),
    headers: { "content-type": req.headers.get("content-type")! },
    remoteAddress: nextIp(),
  });
}

/** The stored logo of an accepted submission. */
async function storedLogo(id: number) {
  const [row] = await t.db.query<{ logo_path: string }>(
    sql`SELECT logo_path FROM network_submissions WHERE id = ${id}`,
  );
  return { path: row.logo_path, bytes: fs.readFileSync(path.join(dataDir, row.logo_path)) };
}

const logoCount = () => {
  const dir = path.join(dataDir, "uploads", "network-logos");
  return fs.existsSync(dir) ? fs.readdirSync(dir).length : 0;
};

describe("hostile logos on POST /api/add-your-network", () => {
  it("PNG/HTML polyglot: stores a PNG without the HTML after IEND", async () => {
    const res = await submitNetwork({ name: "logo.png", bytes: PNG_HTML_POLYGLOT() });
    expect(res.statusCode, res.body).toBe(201);
    const stored = await storedLogo(res.json().id);
    expect(stored.path).toMatch(/\.png$/);
    expect((await sharp(stored.bytes).metadata()).format).toBe("png");
    expect(stored.bytes.includes("<script")).toBe(false);
    expect(stored.bytes.includes("<html")).toBe(false);
  });

  it("GIF/JS polyglot: stores a GIF without the script", async () => {
    const res = await submitNetwork({ name: "logo.gif", bytes: await makeGifJsPolyglot() });
    expect(res.statusCode, res.body).toBe(201);
    const stored = await storedLogo(res.json().id);
    expect(stored.path).toMatch(/\.gif$/);
    expect((await sharp(stored.bytes).metadata()).format).toBe("gif");
    expect(stored.bytes.includes("alert")).toBe(false);
    expect(stored.bytes.includes("<script")).toBe(false);
  });

  it("JPEG with EXIF: stores a JPEG without EXIF or ICC", async () => {
    const res = await submitNetwork({ name: "logo.jpeg", bytes: await makeJpegWithExif() });
    expect(res.statusCode, res.body).toBe(201);
    const stored = await storedLogo(res.json().id);
    expect(stored.path).toMatch(/\.jpg$/);
    const meta = await sharp(stored.bytes).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif, meta.icc]).toEqual([
      "jpeg",
      200,
      200,
      undefined,
      undefined,
    ]);
    expect(stored.bytes.includes(EXIF_SECRET)).toBe(false);
  });

  it("a good logo is stored as its re-encoded self, with the extension of its bytes", async () => {
    const res = await submitNetwork({ name: "logo.webp", bytes: GOOD_LOGO() });
    expect(res.statusCode, res.body).toBe(201);
    const stored = await storedLogo(res.json().id);
    expect(stored.path).toMatch(/\.png$/);
    const [a, b] = await Promise.all([GOOD_LOGO(), stored.bytes].map((x) => sharp(x).raw().toBuffer()));
    expect(b.equals(a)).toBe(true);
  });

  it("refuses a PNG decompression bomb and a 30-byte WebP header with the image message, storing nothing", async () => {
    const files = logoCount();
    const [before] = await t.db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM network_submissions`);
    const started = performance.now();
    const bomb = await submitNetwork({ name: "logo.png", bytes: makePngBomb() });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(bomb.statusCode).toBe(400);
    expect(bomb.json()).toEqual({ message: LOGO_MESSAGES.imageFile });

    const header = await submitNetwork({ name: "logo.webp", bytes: await webpHeaderOnly() });
    expect(header.statusCode).toBe(400);
    expect(header.json()).toEqual({ message: LOGO_MESSAGES.imageFile });

    const [after] = await t.db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM network_submissions`);
    expect(after.n).toBe(before.n);
    expect(logoCount()).toBe(files);
  });
});

describe("broken multipart on POST /api/add-your-network", () => {
  const post = (contentType: string, payload: string | Buffer) =>
    t.app.inject({
      method: "POST",
      url: "/api/add-your-network",
      headers: { "content-type": contentType },
      payload,
      remoteAddress: nextIp(),
    });
  const part = (boundary: string, name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;

  const B = "xyzBOUNDARYxyz";
  // [label, Content-Type, body, the message: MALFORMED_MULTIPART, or (a readable but empty form) the first field's]
  const cases: [label: string, contentType: string, payload: string | Buffer, message: string][] = [
    [
      "no boundary parameter",
      "multipart/form-data",
      part("xyz", "networkName", "Acme") + "--xyz--\r\n",
      MALFORMED_MULTIPART,
    ],
    [
      "empty boundary",
      "multipart/form-data; boundary=",
      part("", "networkName", "Acme") + "----\r\n",
      MALFORMED_MULTIPART,
    ],
    [
      "empty quoted boundary",
      'multipart/form-data; boundary=""',
      part("", "networkName", "Acme") + "----\r\n",
      MALFORMED_MULTIPART,
    ],
    [
      "unterminated body",
      `multipart/form-data; boundary=${B}`,
      part(B, "networkName", "Acme").slice(0, -2),
      MALFORMED_MULTIPART,
    ],
    [
      "unterminated part headers",
      `multipart/form-data; boundary=${B}`,
      `--${B}\r\nContent-Disposition: form-data; name="logo"; filename="a.png"`,
      MALFORMED_MULTIPART,
    ],
    [
      "unterminated file",
      `multipart/form-data; boundary=${B}`,
      Buffer.concat([
        Buffer.from(
          `--${B}\r\nContent-Disposition: form-data; name="logo"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        GOOD_LOGO(),
      ]),
      MALFORMED_MULTIPART,
    ],
    [
      "garbage body",
      `multipart/form-data; boundary=${B}`,
      "\u00ff<script>garbage</script>not multipart at all",
      MALFORMED_MULTIPART,
    ],
    [
      "binary garbage",
      `multipart/form-data; boundary=${B}`,
      Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)),
      MALFORMED_MULTIPART,
    ],
    [
      "boundary mismatch",
      `multipart/form-data; boundary=${B}`,
      part("otherBOUNDARY", "networkName", "Acme") + "--otherBOUNDARY--\r\n",
      MALFORMED_MULTIPART,
    ],
    ["empty body", `multipart/form-data; boundary=${B}`, "", "Network Name cannot be blank"],
    [
      "over-long boundary",
      `multipart/form-data; boundary=${"b".repeat(200)}`,
      part("b".repeat(200), "website", "") + `--${"b".repeat(200)}--\r\n`,
      "Network Name cannot be blank",
    ],
  ];

  for (const [label, contentType, payload, message] of cases) {
    it(`${label}: 400 { message }, never 500, input not echoed`, async () => {
      const res = await post(contentType, payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ message });
      expect(res.body).not.toMatch(/garbage|BOUNDARY|bbbb|Acme|script/i);
    });
  }

  it("a NUL byte in a field: 400 { message } (the door's text check, applied where the body is read)", async () => {
    const res = await submitNetwork({ name: "logo.png", bytes: GOOD_LOGO() }, { networkName: "Acme\u0000Net" });
    expect(res.statusCode, res.body).toBe(400);
    expect(Object.keys(res.json())).toEqual(["message"]);
    expect(res.body).not.toContain("Acme");
  });

  it("a well-formed body is still accepted", async () => {
    const res = await submitNetwork({ name: "logo.png", bytes: GOOD_LOGO() });
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe("lead mails: the sender's copy carries none of their text, the staff copy all of it", () => {
  const EVIL = "<script>alert(1)</script>Evil Net";
  const newMail = async (afterId: number) =>
    t.db.query<{ recipient: string; subject: string; body_text: string; body_html: string | null }>(
      sql`SELECT recipient, subject, body_text, body_html FROM mail_outbox WHERE id > ${afterId} ORDER BY id`,
    );
  const lastMailId = async () =>
    (await t.db.query<{ id: number }>(sql`SELECT coalesce(max(id), 0)::int AS id FROM mail_outbox`))[0].id;

  /** Every submitted string (and each word of it) absent from the mail to `victim`; all present in the staff mail. */
  async function expectNoEcho(afterId: number, victim: string, submitted: string[]) {
    const mails = await newMail(afterId);
    expect(mails.map((m) => m.recipient).sort()).toEqual([t.config.staffEmail, victim].sort());
    const confirmation = mails.find((m) => m.recipient === victim)!;
    const staff = mails.find((m) => m.recipient === t.config.staffEmail)!;
    const seen = `${confirmation.subject}\n${confirmation.body_text}\n${confirmation.body_html ?? ""}`;
    for (const value of submitted) {
      expect(seen, value).not.toContain(value);
      expect(`${staff.subject}\n${staff.body_text}`, value).toContain(value);
    }
    for (const marker of ["<script", "alert", "Evil", "http", "www.", victim])
      expect(seen, marker).not.toContain(marker);
    expect(confirmation.body_html).toBeNull();
    expect(confirmation.body_text).toMatch(/If it was not you who sent it, you can ignore this message\./);
    return confirmation;
  }

  it("add-your-network: a network named <script>…</script>Evil Net mailed to a stranger", async () => {
    const victim = "victim-network@example.org";
    const from = await lastMailId();
    const fields = {
      networkName: EVIL,
      website: "https://phish.example.net/login",
      contactName: "Dear Customer",
      email: victim,
      messenger: "call +1 900 555 0100 now",
      description: "Your account is suspended. Visit www.phish.example.net to restore it within 24 hours.",
    };
    const res = await submitNetwork({ name: "logo.png", bytes: GOOD_LOGO() }, fields);
    expect(res.statusCode, res.body).toBe(201);
    const mail = await expectNoEcho(from, victim, [
      EVIL,
      fields.website,
      fields.contactName,
      fields.messenger,
      fields.description,
    ]);
    expect(mail.body_text).toContain(`#${res.json().id}`);
  });

  it("advertisement-request: company, name and message stay with the staff", async () => {
    const victim = "victim-advertise@example.org";
    const from = await lastMailId();
    const body = {
      name: "Dear Customer",
      email: victim,
      company: EVIL,
      website: "https://phish.example.net",
      phone: "",
      placements: ["Banner ads", "Newsletter"],
      budget: "Over $20,000",
      message: "Your parcel is waiting: www.phish.example.net/track",
    };
    const res = await t.app.inject({
      method: "POST",
      url: "/api/advertisement-request/",
      payload: body,
      remoteAddress: nextIp(),
    });
    expect(res.statusCode, res.body).toBe(201);
    await expectNoEcho(from, victim, [EVIL, body.name, body.website, body.message, "Banner ads", "Over $20,000"]);
  });

  it("contact-us: subject and message stay with the staff", async () => {
    const victim = "victim-contact@example.org";
    const from = await lastMailId();
    const body = {
      name: "Dear Customer",
      email: victim,
      topic: "Report a problem",
      subject: EVIL,
      message: "Please confirm your password at https://phish.example.net/verify today.",
    };
    const res = await t.app.inject({
      method: "POST",
      url: "/api/support/contact-us/",
      payload: body,
      remoteAddress: nextIp(),
    });
    expect(res.statusCode, res.body).toBe(201);
    await expectNoEcho(from, victim, [EVIL, body.name, body.message, body.topic]);
  });

  it("the staff mail keeps one line per field: a value with line breaks cannot forge another field", async () => {
    const from = await lastMailId();
    const body = {
      name: "Alex Reader",
      email: "alex-lines@example.org",
      topic: "General question",
      subject: "Hello\r\nEmail: ceo@offeratlas.example\nName: Our CEO",
      message: "A question about listings.",
    };
    const res = await t.app.inject({
      method: "POST",
      url: "/api/support/contact-us/",
      payload: body,
      remoteAddress: nextIp(),
    });
    expect(res.statusCode, res.body).toBe(201);
    const staff = (await newMail(from)).find((m) => m.recipient === t.config.staffEmail)!;
    const lines = staff.body_text.split("\n");
    expect(lines.filter((l) => l.startsWith("Email: "))).toEqual(["Email: alex-lines@example.org"]);
    expect(lines.filter((l) => l.startsWith("Name: "))).toEqual(["Name: Alex Reader"]);
    expect(lines).toContain("Subject: Hello Email: ceo@offeratlas.example Name: Our CEO");
    expect(staff.subject).not.toMatch(/[\r\n]/);
  });

  it("one address gets at most CONFIRMATION_RATE_LIMIT confirmations a day, however many senders", async () => {
    const victim = "flooded@example.org";
    const from = await lastMailId();
    const payload = {
      name: "Alex Reader",
      email: victim,
      topic: "General question",
      subject: "Hello",
      message: "A question about listings.",
    };
    for (let i = 0; i < CONFIRMATION_RATE_LIMIT.limit + 3; i++) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/support/contact-us/",
        payload,
        remoteAddress: nextIp(),
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const mails = await newMail(from);
    expect(mails.filter((m) => m.recipient === victim)).toHaveLength(CONFIRMATION_RATE_LIMIT.limit);
    // Every submission is still stored and reaches the staff.
    expect(mails.filter((m) => m.recipient === t.config.staffEmail)).toHaveLength(CONFIRMATION_RATE_LIMIT.limit + 3);
    // Addresses are compared case-insensitively.
    const upper = await t.app.inject({
      method: "POST",
      url: "/api/support/contact-us/",
      payload: { ...payload, email: victim.toUpperCase() },
      remoteAddress: nextIp(),
    });
    expect(upper.statusCode).toBe(201);
    expect((await newMail(from)).filter((m) => m.recipient.toLowerCase() === victim)).toHaveLength(
      CONFIRMATION_RATE_LIMIT.limit,
    );
  });
});
