import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../../src/db/client.js";

/**
 * Creating a PGlite database runs initdb (~6 s); loading a tarball of an already migrated one
 * takes ~1 s. So the integration suite migrates one database here, once, and every test file
 * starts its own private copy from the snapshot.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(path.join(tmpdir(), "consentir-pglite-"));
  const file = path.join(dir, "migrated.tar");
  const database = await openDatabase({ kind: "pglite-memory", thread: false });
  try {
    const blob = await database.snapshot!();
    writeFileSync(file, Buffer.from(await blob.arrayBuffer()));
  } finally {
    await database.close();
  }
  project.provide("pgliteSnapshot", file);
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    pgliteSnapshot: string;
  }
}
