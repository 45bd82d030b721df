import type { Tx } from "../../../db/client.js";
import { isMobilePhone, normalizePhone } from "../../../shared/br/phone.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { loadLinkRecipients } from "../signing/signing-link.js";
import { enqueueWhatsapp } from "./enqueue-whatsapp.js";

const deadlineFormat = new Intl.DateTimeFormat("pt-BR", {
  timeZone: "America/Sao_Paulo",
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});

/**
 * On Enviar with the WhatsApp Cloud API configured (decision 059): queues the link template to the
 * mobile on the patient's record — {{1}} first name, {{2}} clinic, {{3}} title, {{4}} link,
 * {{5}} deadline. False when off or the patient has no mobile (staff still have the wa.me link).
 */
export async function whatsappSendLink(
  tx: Tx,
  secretBox: SecretBox,
  input: {
    tenantId: string;
    document: { id: string; titulo: string; paciente_id: string };
    link: string;
    expiresAt: Date;
    on: boolean;
  },
): Promise<boolean> {
  if (!input.on) return false;
  const { patient, clinica } = await loadLinkRecipients(tx, input.tenantId, input.document.paciente_id);
  if (!isMobilePhone(patient.telefone)) return false;
  const first = patient.nome.trim().split(/\s+/)[0] ?? patient.nome;
  await enqueueWhatsapp(tx, secretBox, {
    tenantId: input.tenantId,
    contratoId: input.document.id,
    tipo: "link",
    telefone: normalizePhone(patient.telefone!),
    params: [first, clinica, input.document.titulo, input.link, deadlineFormat.format(input.expiresAt)],
  });
  return true;
}
