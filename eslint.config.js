// ESLint flat config (decision 054): typescript-eslint and react-hooks rules, Prettier owns layout,
// and the import boundaries of docs/development.md — src/shared imports nothing of the app, the
// server and the client never import each other, a client feature reaches another only through that
// feature's public entry (src/client/features/<name>/index.ts).
import { readdirSync } from "node:fs";
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const features = readdirSync(new URL("./src/client/features", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const restricted = (...patterns) => ["error", { patterns }];
const appLayers = (...layers) => ({
  regex: `^(\\.\\./)+(${layers.join("|")})(/|$)`,
  message: "Camada proibida aqui: veja as fronteiras em docs/development.md.",
});
const clientAlias = { regex: "^@/", message: "O código fora de src/client não importa o cliente." };

export default tseslint.config(
  { ignores: ["dist/**", "data/**", "coverage/**", "node_modules/**", "bench/results/**", "tmp/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-console": "off",
    },
  },
  {
    // Tests and benches read JSON answers of every shape; the app's own code keeps the rule.
    files: ["tests/**", "bench/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["src/client/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" },
  },
  {
    files: ["src/shared/**"],
    rules: {
      "no-restricted-imports": restricted(appLayers("server", "client", "db", "pdf"), clientAlias),
    },
  },
  {
    files: ["src/server/**", "src/db/**", "src/pdf/**"],
    rules: { "no-restricted-imports": restricted(appLayers("client"), clientAlias) },
  },
  {
    files: ["src/client/**"],
    rules: {
      "no-restricted-imports": restricted(
        { regex: "^(\\.\\./){2,}", message: "Fora da pasta, importe pelo apelido (@/… ou @shared/…)." },
        { regex: "^@shared/\\.\\.", message: "@shared/ é só src/shared." },
      ),
    },
  },
  ...features.map((feature) => ({
    files: [`src/client/features/${feature}/**`],
    rules: {
      "no-restricted-imports": restricted(
        { regex: "^(\\.\\./){2,}", message: "Fora da pasta, importe pelo apelido (@/… ou @shared/…)." },
        {
          regex: `^@/features/(?!${feature}(/|$))[^/]+/`,
          message: "Outra funcionalidade só pela sua entrada pública: @/features/<nome> (o index.ts dela).",
        },
      ),
    },
  })),
  ...features.map((feature) => ({
    files: [`src/client/features/${feature}/*.{ts,tsx}`],
    rules: {
      "no-restricted-imports": restricted(
        { regex: "^\\.\\./", message: "Fora da funcionalidade, importe pelo apelido (@/…)." },
        {
          regex: `^@/features/(?!${feature}(/|$))[^/]+/`,
          message: "Outra funcionalidade só pela sua entrada pública: @/features/<nome> (o index.ts dela).",
        },
      ),
    },
  })),
  prettier,
);
