/**
 * Why an uploaded certificate file was refused (decision 019). `reason` is stable (audit events,
 * tests, details.motivo); `message` is what the clinic reads, in pt-BR.
 */
export type RefusalReason =
  | "not_pkcs12"
  | "wrong_password"
  | "no_private_key"
  | "multiple_keys"
  | "key_mismatch"
  | "unsupported_key"
  | "weak_key"
  | "unsupported_algorithm"
  | "too_costly"
  | "expired"
  | "not_yet_valid"
  | "no_signing_usage"
  /** The authority's revocation list names it, or an AC of its chain (decision 048). */
  | "revoked"
  /** Checked against the clinic's data: a personal certificate that is not an e-CPF, or not the uploader's. */
  | "not_an_ecpf"
  | "cpf_mismatch";

export class CertificateRefusal extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
    this.name = "CertificateRefusal";
  }
}
