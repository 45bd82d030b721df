import type { TrustedCertificate } from "./verify-signed-pdf.js";

/** Fingerprints from the JSON served by /api/public/seal-certificates, or one per line (# comments). */
export function readTrustList(content: string, source: string): TrustedCertificate[] {
  const trimmed = content.trim();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    const parsed = JSON.parse(trimmed) as
      { certificados?: { sha256?: unknown; assunto?: unknown }[] } | { sha256?: unknown }[];
    const list = Array.isArray(parsed) ? parsed : (parsed.certificados ?? []);
    return list
      .filter((c) => typeof c.sha256 === "string")
      .map((c) => ({
        sha256: c.sha256 as string,
        label: `${"assunto" in c && typeof c.assunto === "string" ? c.assunto : "certificado"} (lista ${source})`,
      }));
  }
  return trimmed
    .split(/\r?\n/)
    .map((line) => line.replace(/#.*/, "").trim())
    .filter(Boolean)
    .map((sha256) => ({ sha256, label: `certificado da lista ${source}` }));
}
