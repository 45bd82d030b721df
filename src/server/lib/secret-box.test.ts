import { mkdtempSync, readdirSync, statSync } from "node:fs";
import os from "node:os";
import { spawn } from "node:child_process";
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

  it("binds a context: opens only with the same one, and a sealing without context opens without", () => {
    const box = createSecretBox(Buffer.alloc(32, 7));
    const sealed = box.seal("link", "linha-1");
    expect(box.open(sealed, "linha-1").toString("utf8")).toBe("link");
    expect(() => box.open(sealed, "linha-2")).toThrow();
    expect(() => box.open(sealed)).toThrow();
    expect(() => box.open(box.seal("link"), "linha-1")).toThrow();
    expect(box.open(box.seal("link")).toString("utf8")).toBe("link");
  });

  it("derives the key from APP_SECRET, or makes DATA_DIR/secret.key once with mode 0600", () => {
    expect(loadInstanceKey({ APP_SECRET: "x".repeat(40), DATA_DIR: "/nonexistent" })).toHaveLength(32);
    const dir = mkdtempSync(path.join(os.tmpdir(), "consentir-key-"));
    const first = loadInstanceKey({ APP_SECRET: undefined, DATA_DIR: dir });
    const again = loadInstanceKey({ APP_SECRET: undefined, DATA_DIR: dir });
    expect(first.equals(again)).toBe(true);
    expect(statSync(path.join(dir, "secret.key")).mode & 0o777).toBe(0o600);
  });

  it("gives processes starting at the same moment one and the same key, whole", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "consentir-key-race-"));
    const script = `import { loadInstanceKey } from ${JSON.stringify(path.resolve("src/server/lib/secret-box.ts"))};
      process.stdout.write(loadInstanceKey({ APP_SECRET: undefined, DATA_DIR: ${JSON.stringify(dir)} }).toString("hex"));`;
    const keys = await Promise.all(
      Array.from({ length: 4 }, () => {
        const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
          stdio: ["ignore", "pipe", "inherit"],
        });
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
        return new Promise<string>((resolve) => child.on("close", () => resolve(out)));
      }),
    );
    expect(keys[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(keys).size).toBe(1);
    expect(readdirSync(dir)).toEqual(["secret.key"]);
  }, 30_000);
});
