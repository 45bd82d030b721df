/**
 * The instance seal, ready to sign: read from seal_certificates (or made there on first need),
 * decrypted with the instance secret box and unlocked once per process (DESIGN §6: unlocking the
 * PKCS#12 is the slow part), then shared by every document.
 *
 * seal_certificates is instance-wide (no tenant, no RLS, not granted to consentir_app): it is
 * read and written with the owner connection, never inside a tenant transaction. Two processes
 * (or two jobs) needing it at the same time for the first time take a transaction-scoped
 * advisory lock, so only one certificate is ever created; the other reads it after the lock.
 */
import { desc, gt } from "drizzle-orm";
import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { sealCertificates } from "../../../db/schema.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { generateSealCertificate, type SealMaterial, unlockP12 } from "./seal-certificate.js";

/** Key of the advisory lock held while the instance seal is looked up or created. */
const SEAL_LOCK_KEY = 7_000_008;

/** What is kept encrypted in p12_encrypted: the PKCS#12 and the passphrase that opens it. */
interface SealedP12 {
  p12_base64: string;
  passphrase: string;
}

export interface InstanceSeal {
  id: string;
  material: SealMaterial;
}

/** Per database handle: the unlocked seal (a promise, so concurrent callers share one unlock). */
const cache = new WeakMap<Db, Promise<InstanceSeal>>();

function open(secretBox: SecretBox, row: { id: string; p12_encrypted: Buffer }): InstanceSeal {
  const sealed = JSON.parse(secretBox.open(row.p12_encrypted).toString("utf8")) as SealedP12;
  return { id: row.id, material: unlockP12(Buffer.from(sealed.p12_base64, "base64"), sealed.passphrase) };
}

/** Reads the seal valid at `now`, or makes it (under an advisory lock); no process cache. */
export async function loadOrCreateSeal(db: Db, secretBox: SecretBox, now: Date): Promise<InstanceSeal> {
  const current = () =>
    db
      .select({ id: sealCertificates.id, p12_encrypted: sealCertificates.p12_encrypted })
      .from(sealCertificates)
      .where(gt(sealCertificates.not_after, now))
      .orderBy(desc(sealCertificates.created_at))
      .limit(1);
  const [existing] = await current();
  if (existing) return open(secretBox, existing);

  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEAL_LOCK_KEY})`);
    const [made] = await tx
      .select({ id: sealCertificates.id, p12_encrypted: sealCertificates.p12_encrypted })
      .from(sealCertificates)
      .where(gt(sealCertificates.not_after, now))
      .orderBy(desc(sealCertificates.created_at))
      .limit(1);
    if (made) return open(secretBox, made);
    const generated = generateSealCertificate(now);
    const sealed: SealedP12 = { p12_base64: generated.p12.toString("base64"), passphrase: generated.passphrase };
    const [row] = await tx
      .insert(sealCertificates)
      .values({
        p12_encrypted: secretBox.seal(JSON.stringify(sealed)),
        subject: generated.material.subject,
        fingerprint_sha256: generated.material.fingerprintSha256,
        not_after: generated.material.notAfter,
      })
      .returning({ id: sealCertificates.id });
    if (!row) throw new Error("seal_certificates insert returned no row");
    return { id: row.id, material: generated.material };
  });
}

/** The instance seal for this database: created on first need, unlocked once per process. */
export function instanceSeal(db: Db, secretBox: SecretBox, now: Date = new Date()): Promise<InstanceSeal> {
  const cached = cache.get(db);
  if (cached) {
    return cached.then((seal) => (seal.material.notAfter.getTime() > now.getTime() ? seal : refresh()));
  }
  return refresh();

  function refresh(): Promise<InstanceSeal> {
    const loading = loadOrCreateSeal(db, secretBox, now);
    cache.set(db, loading);
    loading.catch(() => {
      if (cache.get(db) === loading) cache.delete(db);
    });
    return loading;
  }
}
