import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", "build/**", "data/**"],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    pool: "forks",
    reporters: ["default"],
  },
});
