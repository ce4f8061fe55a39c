// The network submissions queue over the real app: a network submitted through
// POST /api/add-your-network is listed for moderators, then approved (the listing
// appears in /api/networks, on its page and in the sitemap, with its logo at a
// public, long-cached address), rejected (the reason is mailed to the submitter)
// or marked as a duplicate; each decision once, with an audit row.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import type { AuditEntry, AuditPage } from "#contracts/admin.ts";
import type { NetworkOptions, NetworkSummary } from "#contracts/networks.ts";
import { FORBIDDEN } from "#contracts/roles.ts";
import type { SubmissionDecision, SubmissionItem, SubmissionPage } from "#contracts/submissions.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";
import { GOOD_LOGO, makePng } from "../fixtures/images.ts";

let t: TestApp;
let dataDir: string;
let options: NetworkOptions;
let moderator: Awaited<ReturnType<typeof signInWithRoles>>;
let ipSeq = 0;
/** Each submission from its own address, so the lead forms' per-address limit stays out of the way. */
const nextIp = () => `10.66.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "oa-submissions-"));
  t = await createTestApp({ seed: { networks: 4, offers: 20, trafficSources: 1 }, env: { DATA_DIR: dataDir } });
  options = (await t.app.inject("/api/network-options")).json();
  moderator = await signInWithRoles(t, ["moderator"]);
});
afterAll(async () => {
  await t?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

let nameSeq = 0;

/** Submits a network through the public form (with a logo) and answers its submission id. */
async function submit(overrides: Record<string, string> = {}, logo = GOOD_LOGO()): Promise<number> {
  const n = ++nameSeq;
  const fields: Record<string, string | string[]> = {
    networkName: `Queue Test Network ${n}`,
    website: `https://queue-test-${n}.example.com`,
    contactName: "Jane Smith",
    email: `jane${n}@queue-test.example.com`,
    description: "A CPA network with exclusive finance and insurance offers and weekly payments.",
    offerCount: "120",
    verticals: options.verticals.slice(0, 2),
    trackingPlatform: options.trackingPlatforms[0],
    paymentFrequency: options.paymentFrequencies[0],
    paymentMethods: options.paymentMethods.slice(0, 2),
    minimumPayment: "50",
    commissionTypes: options.commissionTypes.slice(0, 2),
    ...overrides,
  };
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) form.append(k, one);
  form.append("logo", new Blob([new Uint8Array(logo)], { type: "image/png" }), "logo.png");
  const req = new Request("http://localhost/", { method: "POST", body: form });
  const res = await t.app.inject({
    method: "POST",
    url: "/api/add-your-network",
    payload: Buffer.from(await req.arrayBuffer()),
    headers: { "content-type": req.headers.get("content-type")! },
    remoteAddress: nextIp(),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: number }>().id;
}

const post = (url: string, payload?: object, headers = moderator.headers) =>
  t.app.inject({ method: "POST", url, headers, ...(payload ? { payload } : {}) });

const auditOf = async (id: number): Promise<AuditEntry[]> => {
  const admin = await signInWithRoles(t, ["admin"]);
  const res = await t.app.inject({ url: "/api/admin/audit?subjectType=network_submission", headers: admin.headers });
  return res.json<AuditPage>().items.filter((e) => e.subjectId === id);
};

const lastMailId = async () =>
  (await t.db.query<{ id: number }>(sql`SELECT coalesce(max(id), 0)::int AS id FROM mail_outbox`))[0].id;

describe("access to /api/admin/submissions", () => {
  it("answers 401 without a session and 403 to a plain user on every route", async () => {
    const id = await submit();
    const plain = await signInWithRoles(t, []);
    const routes = [
      { method: "GET" as const, url: "/api/admin/submissions?status=new" },
      { method: "GET" as const, url: `/api/admin/submissions/${id}/logo` },
      { method: "POST" as const, url: `/api/admin/submissions/${id}/approve` },
      { method: "POST" as const, url: `/api/admin/submissions/${id}/reject`, payload: { reason: "No." } },
      { method: "POST" as const, url: `/api/admin/submissions/${id}/duplicate`, payload: { networkId: 1 } },
    ];
    for (const route of routes) {
      const anonymous = await t.app.inject(route);
      expect(anonymous.statusCode, route.url).toBe(401);
      expect(anonymous.json()).toEqual({ message: expect.any(String) });
      const refused = await t.app.inject({ ...route, headers: plain.headers });
      expect(refused.statusCode, route.url).toBe(403);
      expect(refused.json()).toEqual({ message: FORBIDDEN });
    }
    const [row] = await t.db.query<{ status: string }>(sql`SELECT status FROM network_submissions WHERE id = ${id}`);
    expect(row.status).toBe("pending");
  });
});

describe("GET /api/admin/submissions", () => {
  it("lists the new submissions newest first, with the details and the uploaded logo", async () => {
    const older = await submit();
    const newer = await submit({ messenger: "@queue" });
    const res = await t.app.inject({ url: "/api/admin/submissions?status=new&page=1", headers: moderator.headers });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<SubmissionPage>();
    const [{ pending }] = await t.db.query<{ pending: number }>(
      sql`SELECT count(*)::int AS pending FROM network_submissions WHERE status = 'pending'`,
    );
    expect(page).toMatchObject({ total: pending, page: 1, pageSize: 50 });
    expect(page.items.every((i) => i.status === "new")).toBe(true);
    const ids = page.items.map((i) => i.id);
    expect(ids.indexOf(newer)).toBeLessThan(ids.indexOf(older));
    const item = page.items.find((i) => i.id === newer)!;
    expect(item).toMatchObject({
      status: "new",
      name: expect.stringMatching(/^Queue Test Network/),
      email: expect.stringMatching(/@queue-test\.example\.com$/),
      reason: null,
      decidedBy: null,
      decidedAt: null,
      networkId: null,
      logoUrl: `/api/admin/submissions/${newer}/logo`,
      details: { messenger: "@queue", offerCount: 120, minimumPayment: 50, logo: { width: 200, height: 200 } },
    });

    const logo = await t.app.inject({ url: item.logoUrl!, headers: moderator.headers });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers["content-type"]).toBe("image/png");
    expect(logo.headers["cache-control"]).toMatch(/^private/);
    expect((await sharp(logo.rawPayload).metadata()).width).toBe(200);
  });

  it("filters by status, pages, and refuses a bad status or page with 400", async () => {
    for (const status of ["approved", "rejected", "duplicate"]) {
      const res = await t.app.inject({ url: `/api/admin/submissions?status=${status}`, headers: moderator.headers });
      expect(res.statusCode).toBe(200);
      expect(res.json<SubmissionPage>().items.every((i) => i.status === status)).toBe(true);
    }
    const all = await t.app.inject({ url: "/api/admin/submissions?status=&page=", headers: moderator.headers });
    expect(all.statusCode).toBe(200);
    const far = await t.app.inject({ url: "/api/admin/submissions?page=999", headers: moderator.headers });
    expect(far.json<SubmissionPage>()).toMatchObject({ items: [], page: 999 });
    for (const query of ["status=pending", "status=NEW", "page=0", "page=x"]) {
      const res = await t.app.inject({ url: `/api/admin/submissions?${query}`, headers: moderator.headers });
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toEqual({ message: expect.any(String) });
    }
  });
});

describe("POST /api/admin/submissions/{id}/approve", () => {
  it("creates the listing on the site: searchable, its page, the sitemap and the public logo", async () => {
    const id = await submit({ networkName: "Zebra Crossing Ads", website: "zebra-crossing-ads.example.net" });
    const res = await post(`/api/admin/submissions/${id}/approve`);
    expect(res.statusCode, res.body).toBe(200);
    const { submission } = res.json<SubmissionDecision>();
    expect(submission).toMatchObject({
      id,
      status: "approved",
      decidedBy: { id: moderator.user.id, email: moderator.email },
      decidedAt: expect.any(String),
      networkName: "Zebra Crossing Ads",
    });
    const networkId = submission.networkId!;

    const search = await t.app.inject("/api/networks?search=zebra crossing");
    const found = search.json<{ networks: NetworkSummary[] }>().networks;
    expect(found.map((n) => n.id)).toEqual([networkId]);
    const network = found[0];
    expect(network).toMatchObject({ name: "Zebra Crossing Ads", slug: "zebra-crossing-ads" });
    expect(network.logoUrl).toMatch(/^\/media\/network-logos\/[0-9a-f-]{36}\.png$/);

    const detail = await t.app.inject(`/api/networks/${networkId}/${network.slug}`);
    expect(detail.json().network).toMatchObject({
      website: "https://zebra-crossing-ads.example.net",
      description: expect.stringContaining("CPA network"),
      paymentTerms: options.paymentFrequencies[0],
      paymentMethods: options.paymentMethods.slice(0, 2),
      minimumPayment: 50,
      trackingPlatform: options.trackingPlatforms[0],
      commissionTypes: options.commissionTypes.slice(0, 2),
    });

    const page = await t.app.inject(`/network/${networkId}/${network.slug}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Zebra Crossing Ads");
    expect(page.body).toContain(network.logoUrl);
    const listing = await t.app.inject("/networks?search=zebra");
    expect(listing.statusCode).toBe(200);
    expect(listing.body).toContain(`/network/${networkId}/${network.slug}`);
    const sitemap = await t.app.inject("/sitemaps/networks/1.xml");
    expect(sitemap.body).toContain(`/network/${networkId}/${network.slug}</loc>`);

    const logo = await t.app.inject(network.logoUrl!);
    expect(logo.statusCode).toBe(200);
    expect(logo.headers["content-type"]).toBe("image/png");
    expect(logo.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const [{ logo_path }] = await t.db.query<{ logo_path: string }>(
      sql`SELECT logo_path FROM network_submissions WHERE id = ${id}`,
    );
    expect(logo.rawPayload.equals(fs.readFileSync(path.join(dataDir, logo_path)))).toBe(true);

    const [entry] = await auditOf(id);
    expect(entry).toMatchObject({
      action: "submission.approve",
      actorId: moderator.user.id,
      before: { status: "new", networkId: null, network: null },
      after: {
        status: "approved",
        networkId,
        network: { id: networkId, name: "Zebra Crossing Ads", logoUrl: network.logoUrl, listedOnSite: true },
      },
    });

    const again = await post(`/api/admin/submissions/${id}/approve`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: "This submission was already approved" });
    expect(await auditOf(id)).toHaveLength(1);
  });

  it("updates the network whose name matches whatever the case, keeping its name and slug", async () => {
    const [existing] = await t.db.query<{ id: number; name: string; slug: string }>(
      sql`SELECT id, name, slug FROM networks ORDER BY id LIMIT 1`,
    );
    const count = async () => (await t.db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM networks`))[0].n;
    const networks = await count();
    const id = await submit({
      networkName: existing.name.toUpperCase(),
      description: "Updated description: we now pay weekly by wire and PayPal, with no minimum hold.",
    });
    const res = await post(`/api/admin/submissions/${id}/approve`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<SubmissionDecision>().submission.networkId).toBe(existing.id);
    expect(await count()).toBe(networks);
    const [after] = await t.db.query<{ name: string; slug: string; description: string; logo_url: string }>(
      sql`SELECT name, slug, description, logo_url FROM networks WHERE id = ${existing.id}`,
    );
    expect(after).toMatchObject({
      name: existing.name,
      slug: existing.slug,
      description: expect.stringMatching(/^Updated description/),
    });
    expect(after.logo_url).toMatch(/^\/media\/network-logos\//);
    const [entry] = await auditOf(id);
    expect(entry.before).toMatchObject({ network: { id: existing.id, logoUrl: null } });
    expect(entry.after).toMatchObject({ network: { id: existing.id, description: after.description } });
  });

  it("updates the network whose website has the same host, and lists it on the site", async () => {
    const [existing] = await t.db.query<{ id: number; website: string }>(
      sql`SELECT id, website FROM networks ORDER BY id DESC LIMIT 1`,
    );
    // Listed elsewhere only: approving lists it on this site too.
    await t.db.query(sql`DELETE FROM network_properties WHERE network_id = ${existing.id}`);
    const host = new URL(existing.website).hostname.replace(/^www\./, "");
    const id = await submit({ networkName: "A Brand New Name", website: `http://${host.toUpperCase()}/join` });
    const res = await post(`/api/admin/submissions/${id}/approve`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<SubmissionDecision>().submission.networkId).toBe(existing.id);
    const listed = await t.app.inject(`/api/networks/${existing.id}/x`);
    expect(listed.statusCode).toBe(200);
    const all = (await t.app.inject("/api/networks")).json<{ networks: NetworkSummary[] }>().networks;
    expect(all.some((n) => n.id === existing.id)).toBe(true);
  });

  it("gives a second network of the same name-slug a numbered slug", async () => {
    await t.db.query(sql`INSERT INTO networks (slug, name) VALUES ('slug-clash-network', 'Slug Clash Network (old)')`);
    const id = await submit({ networkName: "Slug Clash Network" });
    const res = await post(`/api/admin/submissions/${id}/approve`);
    expect(res.statusCode, res.body).toBe(200);
    const networkId = res.json<SubmissionDecision>().submission.networkId;
    const [row] = await t.db.query<{ slug: string }>(sql`SELECT slug FROM networks WHERE id = ${networkId}`);
    expect(row.slug).toBe("slug-clash-network-2");
  });

  it("lets one of two moderators deciding at once win; the other gets 409", async () => {
    const id = await submit({}, makePng(200, 200, { rgb: [200, 10, 10] }));
    const other = await signInWithRoles(t, ["moderator"]);
    const [a, b] = await Promise.all([
      post(`/api/admin/submissions/${id}/approve`),
      post(`/api/admin/submissions/${id}/reject`, { reason: "Not an affiliate network." }, other.headers),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect(await auditOf(id)).toHaveLength(1);
  });
});

describe("POST /api/admin/submissions/{id}/reject", () => {
  it("needs a reason of at most 1000 characters", async () => {
    const id = await submit();
    for (const payload of [{}, { reason: "   " }, { reason: "x".repeat(1001) }, { reason: 5 }]) {
      const res = await post(`/api/admin/submissions/${id}/reject`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toEqual({ message: expect.any(String) });
    }
    expect((await post(`/api/admin/submissions/${id}/reject`)).statusCode).toBe(400);
  });

  it("rejects with the reason, mails it to the submitter, and refuses a second decision", async () => {
    const id = await submit({ email: "rejected.submitter@queue-test.example.com" });
    const since = await lastMailId();
    const reason = "We could not verify that the network pays its affiliates.\nPlease write to us with references.";
    const res = await post(`/api/admin/submissions/${id}/reject`, { reason: `  ${reason} ` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<SubmissionDecision>().submission).toMatchObject({
      status: "rejected",
      reason,
      networkId: null,
      decidedBy: { id: moderator.user.id },
    });

    const mails = await t.db.query<{ recipient: string; subject: string; body_text: string }>(
      sql`SELECT recipient, subject, body_text FROM mail_outbox WHERE id > ${since} ORDER BY id`,
    );
    expect(mails).toHaveLength(1);
    expect(mails[0].recipient).toBe("rejected.submitter@queue-test.example.com");
    expect(mails[0].subject).toBe("About your network submission");
    expect(mails[0].body_text).toContain(`#${id}`);
    expect(mails[0].body_text).toContain(reason);
    // Nothing the form sent (the network's name) reaches a mail to an address anyone could have typed.
    expect(mails[0].body_text).not.toContain("Queue Test Network");

    const [entry] = await auditOf(id);
    expect(entry).toMatchObject({
      action: "submission.reject",
      before: { status: "new", reason: null },
      after: { status: "rejected", reason },
    });
    for (const decision of ["approve", "reject", "duplicate"]) {
      const again = await post(`/api/admin/submissions/${id}/${decision}`, { reason: "Again", networkId: 1 });
      expect(again.statusCode, decision).toBe(409);
      expect(again.json()).toEqual({ message: "This submission was already rejected" });
    }
    const rejected = await t.app.inject({ url: "/api/admin/submissions?status=rejected", headers: moderator.headers });
    expect(rejected.json<SubmissionPage>().items.map((i: SubmissionItem) => i.id)).toContain(id);
  });
});

describe("POST /api/admin/submissions/{id}/duplicate", () => {
  it("marks the submission as a duplicate of an existing network", async () => {
    const [network] = await t.db.query<{ id: number; name: string }>(
      sql`SELECT id, name FROM networks ORDER BY id LIMIT 1`,
    );
    const id = await submit();
    for (const payload of [{}, { networkId: "abc" }, { networkId: 0 }, { networkId: 1e20 }, { networkId: 99999999 }]) {
      const res = await post(`/api/admin/submissions/${id}/duplicate`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toEqual({ message: expect.any(String) });
    }
    const res = await post(`/api/admin/submissions/${id}/duplicate`, { networkId: network.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<SubmissionDecision>().submission).toMatchObject({
      status: "duplicate",
      networkId: network.id,
      networkName: network.name,
    });
    const [entry] = await auditOf(id);
    expect(entry).toMatchObject({
      action: "submission.duplicate",
      actorId: moderator.user.id,
      before: { status: "new", networkId: null },
      after: { status: "duplicate", networkId: network.id },
    });
    const again = await post(`/api/admin/submissions/${id}/duplicate`, { networkId: network.id });
    expect(again.statusCode).toBe(409);
    const listed = await t.app.inject({ url: "/api/admin/submissions?status=duplicate", headers: moderator.headers });
    expect(listed.json<SubmissionPage>().items.find((i) => i.id === id)?.networkId).toBe(network.id);
  });
});

describe("ids and public logo addresses", () => {
  it("answers 404 for a malformed or unknown id", async () => {
    for (const bad of ["abc", "0", "-1", "1.5", "99999999999999999999"]) {
      for (const decision of ["approve", "reject", "duplicate"]) {
        const res = await post(`/api/admin/submissions/${bad}/${decision}`, { reason: "x", networkId: 1 });
        expect(res.statusCode, `${bad} ${decision}`).toBe(404);
      }
      const logo = await t.app.inject({ url: `/api/admin/submissions/${bad}/logo`, headers: moderator.headers });
      expect(logo.statusCode, bad).toBe(404);
    }
    for (const decision of ["approve", "reject", "duplicate"]) {
      const res = await post(`/api/admin/submissions/987654321/${decision}`, { reason: "x", networkId: 1 });
      expect(res.statusCode, decision).toBe(404);
      expect(res.json()).toEqual({ message: "Submission not found" });
    }
    const logo = await t.app.inject({ url: "/api/admin/submissions/987654321/logo", headers: moderator.headers });
    expect(logo.statusCode).toBe(404);
  });

  it("serves only names of exactly the public form, from the public directory", async () => {
    const id = await submit();
    const [{ logo_path }] = await t.db.query<{ logo_path: string }>(
      sql`SELECT logo_path FROM network_submissions WHERE id = ${id}`,
    );
    // A pending upload is not public, even by its own name.
    const pending = await t.app.inject(`/media/network-logos/${path.posix.basename(logo_path)}`);
    expect(pending.statusCode).toBe(404);
    for (const name of [
      "..%2F..%2Fuploads%2Fnetwork-logos%2F" + path.posix.basename(logo_path),
      "%2e%2e%2fsecrets",
      "00000000-0000-0000-0000-000000000000.svg",
      "00000000-0000-0000-0000-000000000000.png",
      "00000000-0000-0000-0000-000000000000.PNG",
      "x.png",
    ]) {
      const res = await t.app.inject(`/media/network-logos/${name}`);
      expect(res.statusCode, name).toBe(404);
    }
  });
});
