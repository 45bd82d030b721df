const ZONE = "America/Sao_Paulo";

const date = new Intl.DateTimeFormat("pt-BR", { timeZone: ZONE, day: "2-digit", month: "2-digit", year: "numeric" });
const dateTime = new Intl.DateTimeFormat("pt-BR", {
  timeZone: ZONE,
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

const valid = (value: string | null | undefined): Date | null => {
  if (!value) return null;
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
};

/** "dd/mm/aaaa" in São Paulo; "—" when missing. */
export function formatDate(value: string | null | undefined): string {
  const parsed = valid(value);
  return parsed ? date.format(parsed) : "—";
}

/** "dd/mm/aaaa às hh:mm" in São Paulo; "—" when missing. */
export function formatDateTime(value: string | null | undefined): string {
  const parsed = valid(value);
  return parsed ? dateTime.format(parsed).replace(", ", " às ") : "—";
}

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
