import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Env, resolveDataDir } from "../env.js";

/** AES-256-GCM with the instance key: secrets at rest (signing-link copies, seal certificate). */
export interface SecretBox {
  /** `context` (optional) is authenticated, not stored: `open` must be given the same, or it fails. */
  seal(plain: Uint8Array | string, context?: string): Buffer;
  open(sealed: Uint8Array, context?: string): Buffer;
  /** A 32-byte key for one purpose (HKDF-SHA256 of the instance key), e.g. the audit anchors' MAC. */
  deriveKey(purpose: string): Buffer;
}

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The instance key: SHA-256 of APP_SECRET when set (production, several processes), else 32
 * random bytes made once into DATA_DIR/secret.key (mode 0600).
 */
export function loadInstanceKey(env: Pick<Env, "APP_SECRET" | "DATA_DIR">): Buffer {
  if (env.APP_SECRET) return createHash("sha256").update(env.APP_SECRET, "utf8").digest();
  const file = path.join(resolveDataDir(env), "secret.key");
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    // Written whole under a private name, then linked into place: a process starting at the same
    // moment either finds no key or the complete one, never a half-written file, and never two keys.
    const draft = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    writeFileSync(draft, randomBytes(32).toString("base64"), { mode: 0o600, flag: "wx" });
    try {
      linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      unlinkSync(draft);
    }
  }
  chmodSync(file, 0o600);
  const key = Buffer.from(readFileSync(file, "utf8").trim(), "base64");
  if (key.length !== 32) throw new Error(`${file} não contém uma chave de 32 bytes`);
  return key;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error("secret box key must be 32 bytes");
  const derivedKeys = new Map<string, Buffer>();
  return {
    seal(plain, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      if (context !== undefined) cipher.setAAD(Buffer.from(context, "utf8"));
      const body = Buffer.concat([
        cipher.update(typeof plain === "string" ? Buffer.from(plain, "utf8") : plain),
        cipher.final(),
      ]);
      return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
    },
    deriveKey(purpose) {
      // Derived once per purpose: outbox bodies and signing codes ask for theirs on every message.
      let derived = derivedKeys.get(purpose);
      if (!derived) {
        derived = Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), `consentir:${purpose}`, 32));
        derivedKeys.set(purpose, derived);
      }
      return Buffer.from(derived);
    },
    open(sealed, context) {
      const data = Buffer.from(sealed);
      if (data[0] !== VERSION || data.length < 1 + IV_BYTES + TAG_BYTES)
        throw new Error("sealed secret has an unknown format");
      const iv = data.subarray(1, 1 + IV_BYTES);
      const tag = data.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
      const decipher = createDecipheriv("aes-256-gcm", key, iv);
      decipher.setAuthTag(tag);
      if (context !== undefined) decipher.setAAD(Buffer.from(context, "utf8"));
      return Buffer.concat([decipher.update(data.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]);
    },
  };
}
