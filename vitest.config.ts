import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", "build/**", "data/**"],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    // expect.poll waits for what a page or a job does next. Its default of one second failed a
    // browser test in CI when a form's first answer took longer on the busy machine. A poll that
    // is met returns at once, so a longer bound costs only a failing test its time.
    expect: { poll: { timeout: 10_000 } },
    pool: "forks",
    // One worker process for all files, its modules loaded once: on the 2-core machines CI runs
    // on, a fresh process per file spent a third of the run importing the app again
    // (PGlite: 26.3 -> 17.8 min). Every file still opens its own database and app, and closes
    // them. More workers than one starve the browser tests and the CLI's child processes.
    isolate: false,
    // Builds the app when a source is newer than build/ (page tests import the bundle);
    // names and cleans up the run's database templates.
    globalSetup: ["tests/helpers/build.ts", "tests/helpers/templates.ts"],
    reporters: ["default"],
  },
});
