import type { ReadingSummary } from "../reading/reading-record.js";
import type { OptionalAnswer } from "../document-model/optional-consents.js";
import type { ComprehensionSummary } from "../document-model/comprehension.js";
import type { AudioEvidence } from "../audio/audio-consent.js";
/**
 * The evidence a sealed PDF carries about itself (decision 014): two JSON files
 * embedded as associated files before the seal —
 *  - documento.json: the frozen DocumentModel in RFC 8785 canonical JSON, byte for byte what
 *    conteudo_sha256 hashes (create-document.ts: canonicalSha256(model));
 *  - evidencias.json: the document, its parties, its own event chain (document-chain.ts), the
 *    SHA-256 of the unsigned draft PDF and the chain's final hash, also canonical.
 * Pure (no database): the finalize job builds it, the verifier reads it back.
 */
import type { ContactSince } from "./contact-since.js";
import { chainHead, type DocumentChainEntry } from "./document-chain.js";

export const EVIDENCE_VERSION = 1;
export { DOCUMENT_FILE, EVIDENCE_FILE } from "./file-names.js";

/** An "a rogo" signature as its event records it (decision 070). */
export interface ARogoEvidence {
  a_pedido_de: string;
  motivo: string;
  motivo_texto: string;
  leitura_em_voz_alta: { lido_por: string; declarada: boolean };
}

export interface EvidenceParty {
  id: string;
  papel: string;
  /** The capacity printed with the signature ("responsável legal de …", "profissional responsável — CRM-SP …"). */
  qualidade: string | null;
  /** As registered (the typed name matched it; the typed spelling is nome_digitado). */
  nome: string;
  nome_digitado: string | null;
  cpf: string;
  /** As typed by the signer: NOT checked against the registry (only the code proves an e-mail). */
  email: string | null;
  telefone: string | null;
  assinou_em: string;
  metodo_assinatura: string;
  nivel: "avancada" | "simples";
  motivo_simples: string | null;
  otp_verificado: boolean;
  /** Masked address the code was sent to (document.otp_sent), when one was verified. */
  codigo_enviado_para: string | null;
  /**
   * How that code reached the signer: e-mail or SMS, or "caixa_de_saida" — a development server
   * without SMTP kept it in its outbox and sent nothing. Absent in evidence made before it was recorded.
   */
  codigo_canal?: CodeChannelUsed | null;
  /**
   * Whose contact that code went to, when it was the guardian's own ("responsavel"); absent when it
   * was the patient's record (also the guardian's fallback without contacts of their own) or the
   * witness's own.
   */
  codigo_contato_de?: "responsavel";
  /**
   * Since when that contact has been on the patient's record, and who recorded it, per the clinic's
   * audit trail (decision 046): patient and guardian with a verified code only. Absent in evidence
   * made before it was recorded; null when the trail does not say.
   */
  contato_desde?: ContactSince | null;
  tipo_assinatura: string;
  dispositivo: string | null;
  ip: string | null;
  porta_origem: number | null;
  user_agent: string | null;
  consentimento: { versao: string; sha256: string } | null;
  conteudo_sha256: string;
  assinatura_sha256: string | null;
  /** Front-desk signing: signed on this staff member's device, handed over locked. Absent otherwise. */
  presencial?: { atendente_nome: string };
  /**
   * Signed "a rogo" (decision 070): this party signed at the request of `a_pedido_de`, who does not
   * sign (`motivo_texto`); the term was read aloud by `lido_por` — as the signer declared. Absent otherwise.
   */
  a_rogo?: ARogoEvidence;
  /** Signed on the page shown inside this clinic-allowed site (decision 071): the page's word. Absent otherwise. */
  incorporado?: { origem: string };
  /** The reading record the signer's device sent (decision 052): its word, not verified. */
  leitura?: ReadingSummary | null;
  /** Every answer to the comprehension questions, checked by the server (decision 061). */
  compreensao?: ComprehensionSummary | null;
  /** The audio of the agreement, when the clinic asked for it (decision 069): its SHA-256 and length. */
  audio?: AudioEvidence;
  /**
   * The signer's Sim/Não to each separate optional consent the model offered (decision 057), as
   * the signature's event recorded it. Absent when none was offered.
   */
  consentimentos_opcionais?: OptionalAnswer[];
}

/** How a verified code reached the signer (EvidenceParty.codigo_canal). */
export type CodeChannelUsed = "email" | "sms" | "whatsapp" | "caixa_de_saida";

export interface Evidence {
  versao: number;
  documento: {
    id: string;
    id_curto: string;
    titulo: string;
    clinica: string;
    criado_em: string;
    conteudo_sha256: string;
    codigo_verificacao: string;
    arquivo_conteudo: string;
  };
  partes: EvidenceParty[];
  eventos: DocumentChainEntry[];
  /**
   * SHA-256 of the draft PDF stored when "PDF gerado" (before any signature), when one was
   * generated: whoever holds that file recomputes it with any sha256sum. Null otherwise.
   */
  pdf_sem_assinaturas_sha256: string | null;
  /**
   * The clinic's latest audit-trail time-stamp before the sealing (decision 072), when there is one:
   * the token (DER, base64) is over SHA-256 of the 32 bytes of `hash`, the clinic chain's hash at
   * event `seq`. It proves the clinic's events up to `seq` existed at `gen_time`, nothing after.
   */
  ancora_trilha?: EvidenceTrailAnchor;
  cadeia: { eventos: number; hash_final: string };
}

export interface EvidenceTrailAnchor {
  seq: number;
  hash: string;
  token_b64: string;
  gen_time: string;
  tsa: string;
}

export { canonicalJson } from "./canonical-json.js";

export function buildEvidence(input: Omit<Evidence, "versao" | "cadeia">): Evidence {
  return {
    versao: EVIDENCE_VERSION,
    ...input,
    cadeia: { eventos: input.eventos.length, hash_final: chainHead(input.eventos) },
  };
}

/** Typed views of an event's `data` used by the registry (fields as sign-document.ts writes them). */
export interface SignedEventData {
  parte_id?: string;
  /** A witness's signature names the witness (decision 021). */
  testemunha_id?: string;
  nome_digitado?: string;
  conteudo_sha256?: string;
  assinatura_sha256?: string;
  otp_verificado?: boolean;
  nivel?: "avancada" | "simples";
  motivo_simples?: string | null;
  consentimento?: { versao: string; sha256: string };
  tipo_assinatura?: string;
  porta_origem?: number | null;
  dispositivo?: string | null;
  presencial?: { atendente_id: string; atendente_nome: string };
  a_rogo?: ARogoEvidence;
  incorporado?: { origem: string };
  leitura?: ReadingSummary;
  compreensao?: ComprehensionSummary;
  audio?: AudioEvidence;
  consentimentos_opcionais?: OptionalAnswer[];
}

/** The document.party_signed event of a party (by parte_id): its evidence (decision 015). */
export function signedEventOf(chain: readonly DocumentChainEntry[], parteId: string): DocumentChainEntry | undefined {
  return chain.find(
    (e) => e.action === "document.party_signed" && (e.data as SignedEventData | null)?.parte_id === parteId,
  );
}
