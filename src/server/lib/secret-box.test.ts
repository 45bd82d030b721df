import { mkdtempSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createSecretBox, loadInstanceKey } from "./secret-box.js";

describe("secret box", () => {
  it("round-trips, uses a fresh IV each time and refuses tampered bytes", () => {
    const box = createSecretBox(Buffer.alloc(32, 7));
    const a = box.seal("token-secreto");
    const b = box.seal("token-secreto");
    expect(a.equals(b)).toBe(false);
    expect(box.open(a).toString("utf8")).toBe("token-secreto");
    const tampered = Buffer.from(a);
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 1;
    expect(() => box.open(tampered)).toThrow();
    expect(() => createSecretBox(Buffer.alloc(32, 8)).open(a)).toThrow();
  });

  it("derives the key from APP_SECRET, or makes DATA_DIR/secret.key once with mode 0600", () => {
    expect(loadInstanceKey({ APP_SECRET: "x".repeat(40), DATA_DIR: "/nonexistent" })).toHaveLength(32);
    const dir = mkdtempSync(path.join(os.tmpdir(), "consentir-key-"));
    const first = loadInstanceKey({ APP_SECRET: undefined, DATA_DIR: dir });
    const again = loadInstanceKey({ APP_SECRET: undefined, DATA_DIR: dir });
    expect(first.equals(again)).toBe(true);
    expect(statSync(path.join(dir, "secret.key")).mode & 0o777).toBe(0o600);
  });
});
