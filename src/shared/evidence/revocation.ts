/**
 * What the server found of a certificate's revocation (decision 048), and how the registry page and
 * the upload say it. Plain data with ISO instants: it is kept in the sealing's evidence, crosses to
 * the PDF threads, and is read back by people.
 */
import { formatDateTimeAt } from "../format/index.js";

/** One revocation list read and accepted. */
export interface CrlSeen {
  url: string;
  /** Whose revocation it answered (the certificate's common name). */
  certificado: string;
  emitidaEm: string;
  proximaAte: string | null;
  /** An OCSP answer rather than a list (decision 082); absent for a list. */
  fonte?: "ocsp";
}

export type RevocationResult =
  | { status: "nao_revogado"; consultadoEm: string; listas: CrlSeen[] }
  | {
      status: "revogado";
      consultadoEm: string;
      certificado: string;
      revogadoEm: string;
      motivo: string | null;
      lista: string;
      /** Said by an OCSP responder (at `lista`) rather than a list (decision 082). */
      fonte?: "ocsp";
    }
  | { status: "indisponivel"; consultadoEm: string; motivo: string }
  | { status: "nao_consultado"; motivo: string };

const when = (iso: string) => `${formatDateTimeAt(iso)} (horário de Brasília)`;

/** The registry's words for the answer, after "…cadeia conferida até a raiz oficial X; ". */
export function revocationText(result: RevocationResult): string {
  switch (result.status) {
    case "nao_revogado": {
      const holder = result.listas[0];
      const sources = result.listas.some((l) => l.fonte === "ocsp")
        ? "as listas de revogação (LCR) e respostas OCSP da cadeia, consultadas"
        : "as listas de revogação (LCR) da cadeia, consultadas";
      const holderText = !holder
        ? ""
        : holder.fonte === "ocsp"
          ? `; a resposta OCSP sobre o titular foi emitida em ${when(holder.emitidaEm)}`
          : `; a do titular foi emitida em ${when(holder.emitidaEm)}`;
      return `não revogado segundo ${sources} pelo servidor em ${when(result.consultadoEm)}${holderText}`;
    }
    case "revogado":
      return `“${result.certificado}” revogado em ${when(result.revogadoEm)} segundo ${result.fonte === "ocsp" ? "o OCSP consultado" : "a LCR consultada"} pelo servidor em ${when(result.consultadoEm)}`;
    case "indisponivel":
      return `revogação não consultada: ${result.motivo} (tentativa do servidor em ${when(result.consultadoEm)})`;
    case "nao_consultado":
      return `revogação não consultada: ${result.motivo}`;
  }
}

/**
 * Why a revoked certificate is refused (upload) or not used (sealing), in pt-BR, without a final
 * period. `whose`: how the sentence names the certificate ("o certificado", "o certificado
 * ICP-Brasil escolhido pelo profissional").
 */
export function revokedReason(
  result: Extract<RevocationResult, { status: "revogado" }>,
  holderName: string,
  whose = "o certificado",
): string {
  const at = `pela autoridade certificadora em ${formatDateTimeAt(result.revogadoEm)}${result.motivo ? ` (motivo: ${result.motivo})` : ""}`;
  return result.certificado === holderName
    ? `${whose} foi revogado ${at}`
    : `${whose} tem na cadeia o certificado “${result.certificado}”, revogado ${at}`;
}
