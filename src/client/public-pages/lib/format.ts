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
