import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", "build/**", "data/**"],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    pool: "forks",
    // Builds the app when a source is newer than build/ (page tests import the bundle);
    // names and cleans up the run's database templates.
    globalSetup: ["tests/helpers/build.ts", "tests/helpers/templates.ts"],
    reporters: ["default"],
  },
});
