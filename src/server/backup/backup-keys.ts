import { createHash, hkdfSync } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { type Env, resolveDataDir } from "../env.js";
import type { SecretBox } from "../lib/secret-box.js";
import { BACKUP_MESSAGES, BackupError } from "./backup-error.js";
import type { KeySource } from "./chunked-aead.js";

/** HKDF info of the backups' root key: never the instance secret itself (decision 027). */
export const BACKUP_KEY_PURPOSE = "backup-v1";
/** HKDF info of the instance key's fingerprint written in each backup. */
const INSTANCE_KEY_ID_PURPOSE = "instance-key-id-v1";

export interface BackupRootKey {
  source: KeySource;
  key: Buffer;
}

const rootFromSecret = (secret: Buffer): Buffer =>
  Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), `consentir:${BACKUP_KEY_PURPOSE}`, 32));

/**
 * The instance key as the app reads it (secret-box.ts), but never made: SHA-256 of APP_SECRET, or
 * DATA_DIR/secret.key when it exists; null otherwise (a restore into a fresh folder).
 */
export function readInstanceKey(env: Pick<Env, "APP_SECRET" | "DATA_DIR">): Buffer | null {
  if (env.APP_SECRET) return createHash("sha256").update(env.APP_SECRET, "utf8").digest();
  const file = path.join(resolveDataDir(env), "secret.key");
  if (!existsSync(file)) return null;
  const key = Buffer.from(readFileSync(file, "utf8").trim(), "base64");
  if (key.length !== 32) throw new BackupError(`${file} não contém uma chave de 32 bytes.`);
  return key;
}

/** A short fingerprint of the instance key (HKDF output, nothing of the key itself). */
export function instanceKeyId(instanceKey: Buffer): string {
  return Buffer.from(
    hkdfSync("sha256", instanceKey, Buffer.alloc(0), `consentir:${INSTANCE_KEY_ID_PURPOSE}`, 8),
  ).toString("hex");
}

/** The same fingerprint from the app's secret box (the worker never sees the raw key). */
export function instanceKeyIdFromBox(secretBox: SecretBox): string {
  return secretBox.deriveKey(INSTANCE_KEY_ID_PURPOSE).subarray(0, 8).toString("hex");
}

/** BACKUP_KEY when set, else the root derived from the instance key. */
export function backupRootKey(
  env: Pick<Env, "APP_SECRET" | "DATA_DIR" | "BACKUP_KEY">,
  instanceKey: Buffer | null,
): BackupRootKey {
  if (env.BACKUP_KEY)
    return { source: "backup_key", key: rootFromSecret(createHash("sha256").update(env.BACKUP_KEY, "utf8").digest()) };
  if (!instanceKey) throw new BackupError(BACKUP_MESSAGES.noKeyForBackup(resolveDataDir(env)));
  return { source: "instance", key: rootFromSecret(instanceKey) };
}

/** In the app: BACKUP_KEY, else the secret box's derivation (same bytes as rootFromSecret(instance key)). */
export function backupRootKeyFromBox(env: Pick<Env, "BACKUP_KEY">, secretBox: SecretBox): BackupRootKey {
  if (env.BACKUP_KEY)
    return { source: "backup_key", key: rootFromSecret(createHash("sha256").update(env.BACKUP_KEY, "utf8").digest()) };
  return { source: "instance", key: secretBox.deriveKey(BACKUP_KEY_PURPOSE) };
}

/** For a restore: the root key the file's header asks for, or a pt-BR refusal naming what is missing. */
export function restoreRootKey(
  source: KeySource,
  env: Pick<Env, "APP_SECRET" | "DATA_DIR" | "BACKUP_KEY">,
  instanceKey: Buffer | null,
): Buffer {
  if (source === "backup_key") {
    if (!env.BACKUP_KEY) throw new BackupError(BACKUP_MESSAGES.needsBackupKey);
    return rootFromSecret(createHash("sha256").update(env.BACKUP_KEY, "utf8").digest());
  }
  if (!instanceKey) throw new BackupError(BACKUP_MESSAGES.needsInstanceKey(resolveDataDir(env)));
  return rootFromSecret(instanceKey);
}

/** How the operator names the key in messages. */
export function keySourceLabel(source: KeySource, env: Pick<Env, "APP_SECRET">): string {
  if (source === "backup_key") return "a BACKUP_KEY";
  return env.APP_SECRET ? "a APP_SECRET" : "o secret.key";
}
