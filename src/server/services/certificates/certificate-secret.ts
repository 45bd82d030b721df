import type { SecretBox } from "../../lib/secret-box.js";

/** What `certificados.secret_encrypted` holds, sealed with the instance secret box (decision 019). */
interface CertificateSecret {
  pfx_base64: string;
  password: string;
}

export function sealCertificateSecret(secretBox: SecretBox, pfx: Uint8Array, password: string): Buffer {
  const secret: CertificateSecret = { pfx_base64: Buffer.from(pfx).toString("base64"), password };
  return secretBox.seal(JSON.stringify(secret));
}

export function openCertificateSecret(secretBox: SecretBox, sealed: Uint8Array): { pfx: Buffer; password: string } {
  const secret = JSON.parse(secretBox.open(sealed).toString("utf8")) as CertificateSecret;
  return { pfx: Buffer.from(secret.pfx_base64, "base64"), password: secret.password };
}
