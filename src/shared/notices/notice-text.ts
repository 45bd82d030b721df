import { formatDate, formatDateTimeAt } from "../format/index.js";
import type { NoticeKind } from "./notice-kinds.js";

/** "12/03/2026 às 14:05", in São Paulo. */
export function whenInSaoPaulo(instant: Date): string {
  return formatDateTimeAt(instant);
}

/** "12/03/2026", in São Paulo. */
export function dayInSaoPaulo(instant: Date): string {
  return formatDate(instant);
}

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** "em 5 horas", "em menos de 1 hora" (from now to a later instant). */
export function hoursLeft(until: Date, now: Date): string {
  const hours = Math.floor((until.getTime() - now.getTime()) / HOUR_MS);
  if (hours < 1) return "em menos de 1 hora";
  return hours === 1 ? "em 1 hora" : `em ${hours} horas`;
}

/** Whole days left, rounded up (as the certificates screen counts them). */
function daysLeft(until: Date, now: Date): number {
  return Math.max(0, Math.ceil((until.getTime() - now.getTime()) / DAY_MS));
}

/** What a notice is about, as the server reads it (names and titles as stored). */
export type NoticeFacts =
  | { kind: "document.viewed"; titulo: string; paciente: string | null; viewedAt: Date }
  | { kind: "document.expiring"; titulo: string; paciente: string | null; expiresAt: Date; viewed: boolean }
  | { kind: "document.signed"; titulo: string; paciente: string | null; signedAt: Date }
  | { kind: "document.refused"; titulo: string; paciente: string | null; at: Date; motivo: string | null }
  | { kind: "document.revoked"; titulo: string; paciente: string | null; at: Date; motivo: string | null }
  | { kind: "document.paused"; titulo: string; paciente: string | null; at: Date }
  | { kind: "professional.awaiting"; quantidade: number }
  | { kind: "email.failed"; assunto: string; para: string; tentativas: number; erro: string | null }
  | { kind: "feegow.failed"; titulo: string; paciente: string | null; erro: string | null }
  | { kind: "certificate.expiring"; alias: string; titular: string; expiresAt: Date }
  | { kind: "certificate.expired"; alias: string; titular: string; expiresAt: Date }
  | { kind: "system"; title: string; body: string };

export interface NoticeText {
  titulo: string;
  mensagem: string;
}

const who = (paciente: string | null) => paciente ?? "O paciente";
/** Messages from other systems can be long: the notice shows the start. */
const short = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Title and message of a notice, in pt-BR, times in São Paulo. */
export function noticeText(facts: NoticeFacts, now: Date): NoticeText {
  switch (facts.kind) {
    case "document.viewed":
      return {
        titulo: "Visualizado e não assinado",
        mensagem: `${who(facts.paciente)} abriu "${facts.titulo}" em ${whenInSaoPaulo(facts.viewedAt)} e ainda não assinou.`,
      };
    case "document.expiring":
      return {
        titulo: "Vence em menos de 48 horas",
        mensagem:
          `"${facts.titulo}"${facts.paciente ? ` de ${facts.paciente}` : ""} vence ${hoursLeft(facts.expiresAt, now)} ` +
          `(${whenInSaoPaulo(facts.expiresAt)}) e ainda não foi assinado${facts.viewed ? ", embora já tenha sido aberto" : ""}.`,
      };
    case "document.signed":
      return {
        titulo: "Assinado desde a sua última visita",
        mensagem: `${who(facts.paciente)} assinou "${facts.titulo}" em ${whenInSaoPaulo(facts.signedAt)}.`,
      };
    case "document.refused":
      return {
        titulo: "Recusado pelo paciente",
        mensagem: `${who(facts.paciente)} recusou "${facts.titulo}" em ${whenInSaoPaulo(facts.at)}${facts.motivo ? `. Motivo: ${short(facts.motivo, 200)}` : "."}`,
      };
    case "document.revoked":
      return {
        titulo: "Consentimento revogado",
        mensagem: `${who(facts.paciente)} revogou o consentimento de "${facts.titulo}" em ${whenInSaoPaulo(facts.at)}${facts.motivo ? `. Motivo: ${short(facts.motivo, 200)}` : "."}`,
      };
    case "document.paused":
      return {
        titulo: "Paciente quer falar com o profissional",
        mensagem: `${who(facts.paciente)} errou uma pergunta de compreensão de "${facts.titulo}" e pediu para falar com o profissional em ${whenInSaoPaulo(facts.at)}. A assinatura está pausada até a clínica reenviar o link.`,
      };
    case "professional.awaiting":
      return {
        titulo: awaitingProfessionalTitle(facts.quantidade),
        mensagem:
          facts.quantidade === 1
            ? "Um documento enviado ao paciente espera a declaração do profissional, que só você pode assinar."
            : `${facts.quantidade} documentos enviados aos pacientes esperam a declaração do profissional, que só você pode assinar. Você pode assiná-los de uma vez.`,
      };
    case "email.failed":
      return {
        titulo: "E-mail não entregue",
        mensagem:
          `"${short(facts.assunto, 120)}" para ${facts.para} não foi entregue depois de ${facts.tentativas} ` +
          `${facts.tentativas === 1 ? "tentativa" : "tentativas"}${facts.erro ? `: ${short(facts.erro, 200)}` : "."}`,
      };
    case "feegow.failed":
      return {
        titulo: "Falha no envio ao Feegow",
        mensagem: `O PDF de "${facts.titulo}"${facts.paciente ? ` (${facts.paciente})` : ""} não foi enviado ao Feegow: ${facts.erro ? short(facts.erro) : "erro desconhecido"}`,
      };
    case "certificate.expiring": {
      const days = daysLeft(facts.expiresAt, now);
      return {
        titulo: `Certificado vence em ${days} ${days === 1 ? "dia" : "dias"}`,
        mensagem:
          `O certificado "${facts.alias}" (${facts.titular}) vence em ${dayInSaoPaulo(facts.expiresAt)}. ` +
          "Renove-o e envie o novo arquivo em Certificado Digital.",
      };
    }
    case "certificate.expired":
      return {
        titulo: "Certificado vencido",
        mensagem:
          `O certificado "${facts.alias}" (${facts.titular}) venceu em ${dayInSaoPaulo(facts.expiresAt)} e não assina mais documentos. ` +
          "Envie o certificado renovado em Certificado Digital.",
      };
    case "system":
      return { titulo: facts.title, mensagem: facts.body };
  }
}

/** "1 documento aguarda sua assinatura", "3 documentos aguardam sua assinatura" (the notice and its e-mail). */
export function awaitingProfessionalTitle(quantidade: number): string {
  return quantidade === 1 ? "1 documento aguarda sua assinatura" : `${quantidade} documentos aguardam sua assinatura`;
}

/** The screen where the professional signs what waits for them (decision 050). */
export const AWAITING_PROFESSIONAL_PATH = "/documents/awaiting-signature";

/** Feegow failures the clinic fixes in Integração (the token or the switch), not on the document. */
const INTEGRATION_FAILURES = new Set(["desativado", "sem_token", "token_invalido", "token_inativo"]);

/** Where a notice leads: its document, Integração, Certificado Digital, or a system notice's own link. */
export function noticeLink(
  kind: NoticeKind,
  ref: { documentId?: string | null; motivo?: string | null; link?: string | null },
): string | null {
  switch (kind) {
    case "document.viewed":
    case "document.expiring":
    case "document.signed":
    case "document.refused":
    case "document.revoked":
    case "document.paused":
      return ref.documentId ? `/documents/${ref.documentId}` : null;
    case "feegow.failed":
      if (ref.motivo && INTEGRATION_FAILURES.has(ref.motivo)) return "/integration";
      return ref.documentId ? `/documents/${ref.documentId}` : "/integration";
    case "professional.awaiting":
      return AWAITING_PROFESSIONAL_PATH;
    case "certificate.expiring":
    case "certificate.expired":
      return "/certificates";
    case "email.failed":
      return null;
    case "system":
      return ref.link && isAppPath(ref.link) ? ref.link : null;
  }
}

/** A path inside the app ("/settings"), never another site ("//x.com", "https://…"). */
export function isAppPath(link: string): boolean {
  return /^\/(?![/\\])[\w\-./?=&%#]*$/.test(link);
}
