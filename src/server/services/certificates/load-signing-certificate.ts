/**
 * The clinic's or a professional's active A1, unlocked and ready to sign (decision 019) — what
 * the signer (src/server/services/sealing) needs to put an ICP-Brasil signature on the final PDF.
 *
 * Each call reads the row (tenant-scoped, under RLS), so a removed or replaced certificate stops
 * being used at once; only the unlock — decrypting the secret and opening the PKCS#12 with
 * node-forge, 20–60 ms — is done once per process and certificate id (the file behind an id
 * never changes). Concurrent first callers share one unlock; a failure is not cached. An
 * inactive, expired or not-yet-valid certificate is never returned (null: the caller falls back,
 * e.g. to the instance seal). A stored certificate that cannot be opened throws.
 */
import { createPrivateKey, type KeyObject } from "node:crypto";
import { and, desc, eq, gt, isNull, lte } from "drizzle-orm";
import forge from "node-forge";
import type { Db } from "../../../db/client.js";
import { certificados } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { HolderKind } from "../../../shared/certificates/icp-brasil-identifiers.js";
import { sha256Hex } from "../../lib/content-hash.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { SealMaterial } from "../sealing/seal-certificate.js";
import { openCertificateSecret } from "./certificate-secret.js";
import { openPkcs12 } from "./open-pkcs12.js";
import { derOf, names } from "./x509-fields.js";

/**
 * SealMaterial with the chain in the file: `chainDer` holds the holder's issuers (AC … root when
 * present), holder not repeated — as SealMaterial documents it and the CMS writer expects.
 */
export interface SigningMaterial extends SealMaterial {
  privateKey: KeyObject;
  chainDer: Buffer[];
}

export interface SigningCertificate {
  id: string;
  material: SigningMaterial;
  icpBrasil: boolean;
  holderKind: HolderKind;
}

/** Unlocked certificates by id, per database handle; bounded (oldest unlock dropped first). */
const cache = new WeakMap<Db, Map<string, Promise<SigningMaterial>>>();
const MAX_CACHED = 500;

/** Opens a stored certificate's secret into signing material (exported for tests and benchmarks). */
export function unlockStoredCertificate(secretBox: SecretBox, sealed: Uint8Array): SigningMaterial {
  const { pfx, password } = openCertificateSecret(secretBox, sealed);
  const opened = openPkcs12(pfx, password);
  const [certificateDer, ...chainDer] = opened.chain.map(derOf) as [Buffer, ...Buffer[]];
  const { commonName, subject } = names(certificateDer);
  return {
    privateKey: createPrivateKey(forge.pki.privateKeyToPem(opened.key)),
    certificateDer,
    chainDer,
    commonName,
    subject,
    fingerprintSha256: sha256Hex(certificateDer),
    notAfter: opened.holder.validity.notAfter,
  };
}

function unlockOnce(db: Db, secretBox: SecretBox, id: string, sealed: Uint8Array): Promise<SigningMaterial> {
  let perDb = cache.get(db);
  if (!perDb) {
    perDb = new Map();
    cache.set(db, perDb);
  }
  const cached = perDb.get(id);
  if (cached) return cached;
  const map = perDb;
  const loading = Promise.resolve().then(() => unlockStoredCertificate(secretBox, sealed));
  map.set(id, loading);
  if (map.size > MAX_CACHED) map.delete(map.keys().next().value!);
  loading.catch(() => {
    if (map.get(id) === loading) map.delete(id);
  });
  return loading;
}

interface ActiveCertificateOptions {
  db: Db;
  secretBox: SecretBox;
  tenantId: string;
  ownerProfileId: string | null;
  now: Date;
}

async function activeCertificate({
  db,
  secretBox,
  tenantId,
  ownerProfileId,
  now,
}: ActiveCertificateOptions): Promise<SigningCertificate | null> {
  const [row] = await withTenant(db, tenantId, (tx) =>
    tx
      .select({
        id: certificados.id,
        secret: certificados.secret_encrypted,
        icpBrasil: certificados.icp_brasil,
        holderKind: certificados.holder_kind,
        fingerprint: certificados.fingerprint_sha256,
      })
      .from(certificados)
      .where(
        and(
          eq(certificados.tenant_id, tenantId),
          eq(certificados.is_active, true),
          ownerProfileId ? eq(certificados.owner_profile_id, ownerProfileId) : isNull(certificados.owner_profile_id),
          lte(certificados.not_before, now),
          gt(certificados.vence_em, now),
        ),
      )
      .orderBy(desc(certificados.created_at))
      .limit(1),
  );
  if (!row) return null;
  const material = await unlockOnce(db, secretBox, row.id, row.secret);
  if (material.fingerprintSha256 !== row.fingerprint)
    throw new Error(`certificado ${row.id}: o arquivo guardado não é o certificado registrado`);
  if (material.notAfter.getTime() <= now.getTime()) return null;
  return { id: row.id, material, icpBrasil: row.icpBrasil, holderKind: row.holderKind };
}

/** The clinic's own active certificate (e.g. its e-CNPJ), or null. */
export function activeClinicCertificate(
  db: Db,
  secretBox: SecretBox,
  tenantId: string,
  now: Date = new Date(),
): Promise<SigningCertificate | null> {
  return activeCertificate({ db, secretBox, tenantId, ownerProfileId: null, now });
}

/** A professional's own active certificate (their e-CPF) in this clinic, or null. */
export function activeProfessionalCertificate(
  db: Db,
  secretBox: SecretBox,
  tenantId: string,
  profileId: string,
  now: Date = new Date(),
): Promise<SigningCertificate | null> {
  return activeCertificate({ db, secretBox, tenantId, ownerProfileId: profileId, now });
}
