/**
 * A PKCS#12 states its own key-derivation iteration counts, and node-forge runs them in plain
 * JavaScript on the event loop (~9 ms per 1,000 PBKDF2-SHA256 iterations here): a crafted
 * 64 kB file could ask for billions. While one file is opened (synchronously), forge's three
 * key-derivation functions are wrapped to count the iterations asked for and stop past a budget
 * far above what real A1 files use (Windows and OpenSSL export 2,000–2,048 per derivation, Java
 * 10,000; a file makes 3–5 derivations). The wrappers are put back before anything else runs.
 *
 * The PBKDF2 wrapper also hands forge the password as UTF-8 bytes (what OpenSSL and Windows use
 * for PBES2); forge would otherwise truncate each character to one byte, so a password with 'ç'
 * or 'ã' would fail on AES-encrypted files. The PKCS#12 derivation (MAC, 3DES/RC2) already uses
 * the password's UTF-16 code units, as the standard asks.
 */
import forge from "node-forge";
import { CertificateRefusal } from "./certificate-refusal.js";

/** Total iterations one file may ask for (~2 s of forge PBKDF2-SHA256 at worst). */
export const MAX_KDF_ITERATIONS = 200_000;

type Pbkdf2 = typeof forge.pkcs5.pbkdf2;
type Pkcs12Kdf = (
  password: string,
  salt: unknown,
  id: number,
  iter: number,
  n: number,
  md?: unknown,
) => forge.util.ByteStringBuffer;

interface ForgeKdfs {
  pkcs5: { pbkdf2: Pbkdf2 };
  pkcs12: { generateKey: Pkcs12Kdf };
  pki: { pbe: { generatePkcs12Key: Pkcs12Kdf } };
}

export function withKdfBudget<T>(work: () => T, budget = MAX_KDF_ITERATIONS): T {
  const kdfs = forge as unknown as ForgeKdfs;
  const original = {
    pbkdf2: kdfs.pkcs5.pbkdf2,
    generateKey: kdfs.pkcs12.generateKey,
    generatePkcs12Key: kdfs.pki.pbe.generatePkcs12Key,
  };
  let spent = 0;
  const spend = (iterations: number) => {
    spent += Number.isFinite(iterations) && iterations > 0 ? iterations : 0;
    if (spent > budget) {
      throw new CertificateRefusal(
        "too_costly",
        "O arquivo pede um número de iterações de proteção fora do comum e não foi aberto. Exporte o certificado de novo pelo programa da autoridade certificadora.",
      );
    }
  };
  kdfs.pkcs5.pbkdf2 = ((password: string, salt: string, iterations: number, ...rest: unknown[]) => {
    spend(iterations);
    return (original.pbkdf2 as (...args: unknown[]) => unknown)(
      forge.util.encodeUtf8(password),
      salt,
      iterations,
      ...rest,
    );
  }) as Pbkdf2;
  const guarded =
    (kdf: Pkcs12Kdf): Pkcs12Kdf =>
    (password, salt, id, iter, n, md) => {
      spend(iter);
      return kdf(password, salt, id, iter, n, md);
    };
  kdfs.pkcs12.generateKey = guarded(original.generateKey);
  kdfs.pki.pbe.generatePkcs12Key = guarded(original.generatePkcs12Key);
  try {
    return work();
  } finally {
    kdfs.pkcs5.pbkdf2 = original.pbkdf2;
    kdfs.pkcs12.generateKey = original.generateKey;
    kdfs.pki.pbe.generatePkcs12Key = original.generatePkcs12Key;
  }
}
