// Vitest global setup: names this run's database templates (tests/helpers/database.ts
// builds each on first use and copies it for every test file) and removes them when
// the run ends: the PGlite dumps in a temporary directory, the PostgreSQL template
// databases and any copy a killed test file left behind.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";

export type TestTemplates = {
  /** Names this run's PostgreSQL databases (runs on one server never share them). */
  runId: string;
  /** This run's PGlite dumps. */
  dir: string;
};

declare module "vitest" {
  export interface ProvidedContext {
    testTemplates: TestTemplates;
  }
}

/** The catalogue createTestApp seeds unless told otherwise; no demo reviews: tests that review networks start from unreviewed ones. */
export const DEMO_SEED = { siteId: "offeratlas", networks: 30, offers: 1500, trafficSources: 12, reviews: 0 };

export const pgliteTemplateFile = (dir: string, template: string) => path.join(dir, `${template}.tar`);

/** `oa_test_<run>_<template>`: lowercase, well under PostgreSQL's 63 characters. */
export const postgresTemplateName = (runId: string, template: string) => `oa_test_${runId}_${template}`;

export default function setup(project: TestProject) {
  const templates: TestTemplates = {
    runId: crypto.randomBytes(4).toString("hex"),
    dir: fs.mkdtempSync(path.join(os.tmpdir(), "offeratlas-test-templates-")),
  };
  project.provide("testTemplates", templates);
  return async function teardown() {
    fs.rmSync(templates.dir, { recursive: true, force: true });
    const url = process.env.TEST_DATABASE_URL;
    if (!url) return;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE starts_with(datname, $1)`,
        [postgresTemplateName(templates.runId, "")],
      );
      for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    } finally {
      await client.end();
    }
  };
}
