export { formatDate, formatDateTimeAt as formatDateTime } from "@shared/format";

/** Method badge of a signature (spec part 1 §2: Eletrônica or ICP-Brasil). */
export function methodLabel(method: string): string {
  return /icp/i.test(method) ? "ICP-Brasil" : "Eletrônica";
}

/** Document statuses in pt-BR (the public pages do not load the admin schemas). */
const STATUS_LABEL: Record<string, string> = {
  draft: "Rascunho",
  sent: "Enviado",
  viewed: "Visualizado",
  signed: "Assinado",
  cancelled: "Cancelado",
  expired: "Expirado",
};

export function statusLabel(status: string): string {
  return STATUS_LABEL[status] ?? status;
}

/**
 * "… ao seu e-mail cadastrado (be***@exemplo.com.br)." or "… ao seu celular cadastrado, final
 * 4321." — the masked phone "(**) *****-4321" inside brackets read as "((**) *****-4321)".
 */
export function withDestination(text: string, canal: "email" | "sms" | "whatsapp", destino: string | null): string {
  if (!destino) return text;
  const sentence = text.replace(/\.$/, "");
  if (canal === "email") return `${sentence} (${destino}).`;
  const last = destino.replace(/\D/g, "").slice(-4);
  return last.length === 4 ? `${sentence}, final ${last}.` : text;
}
