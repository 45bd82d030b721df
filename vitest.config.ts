import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { compiledSources } from "./tests/helpers/compiled-sources-plugin.js";

const clientRoot = fileURLToPath(new URL("./src/client", import.meta.url));
const sharedRoot = fileURLToPath(new URL("./src/shared", import.meta.url));
const postgresUrl = process.env.TEST_DATABASE_URL;
/**
 * Integration files whose subject is the bytes of a PDF, an image or a certificate, not the
 * database: they run on the default database (PGlite) only, not again on PostgreSQL (decision 080).
 * The database paths they pass through (create, sign, finalize, store) run on both in other files.
 */
const SUBJECT_IS_NOT_THE_DATABASE = [
  "clinic-logo",
  "offline-evidence",
  "icp-signing",
  "tsa-finalize",
  "certificate-revocation",
  "signer-signed-pdf",
].map((name) => `tests/integration/${name}.test.ts`);

export default defineConfig({
  resolve: { alias: { "@shared": sharedRoot, "@": clientRoot } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["src/**/*.test.ts", "src/**/*.test.tsx", "tests/unit/**/*.test.ts"],
          environment: "node",
          // Some unit tests render PDFs and run pdftotext/qpdf: 5 s is too tight on a busy 2-core CI.
          testTimeout: 20_000,
          // remote-pglite.test.ts starts PGlite (initdb) in a thread in its beforeAll: ~6 s quiet,
          // over the default 10 s with two busy processes beside the suite.
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        plugins: [compiledSources()],
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          env: { TEST_DB: "pglite" },
          setupFiles: ["tests/helpers/source-maps-setup.ts"],
          globalSetup: ["tests/helpers/pglite-snapshot-setup.ts", "tests/helpers/compiled-entries-setup.ts"],
          // A bound for a hang, not a wait: tests wait on conditions. 30 s failed quick tests on a
          // 2-core machine under four busy processes (worker finalize, hostile PDFs, CRL checks).
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      ...(postgresUrl
        ? [
            {
              extends: true as const,
              plugins: [compiledSources()],
              test: {
                name: "integration-postgres",
                include: ["tests/integration/**/*.test.ts"],
                exclude: SUBJECT_IS_NOT_THE_DATABASE,
                env: { TEST_DB: "postgres" },
                globalSetup: ["tests/helpers/compiled-entries-setup.ts"],
                // Each fork on its own database (scripts/test-integration.mjs makes them).
                setupFiles: ["tests/helpers/source-maps-setup.ts", "tests/helpers/postgres-fork-database.ts"],
                testTimeout: 120_000,
                hookTimeout: 120_000,
              },
            },
          ]
        : []),
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // `npm run test:e2e` runs two forks, one per lane, each with its own server (tests/e2e/lanes.ts).
          globalSetup: ["tests/e2e/global-setup.ts"],
        },
      },
    ],
  },
});
