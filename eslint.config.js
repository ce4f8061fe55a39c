// Lint for what types cannot catch: unused code, hooks mistakes, unsafe patterns.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";

export default tseslint.config(
  // The same files .gitignore keeps out of the repository (flat config does not read it).
  {
    ignores: [
      "build/**",
      "data/**",
      ".react-router/**",
      "node_modules/**",
      "bench/results/**",
      "test-results/**",
      ".scratch/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // Plain CommonJS that must run on any Node (scripts/check-node.cjs).
  {
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { process: "readonly", console: "readonly" } },
  },
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-restricted-syntax": [
        "error",
        {
          selector: "TSEnumDeclaration",
          message: "Enums are not erasable; Node runs our TypeScript by stripping types.",
        },
      ],
    },
  },
);
