import { z } from "zod";
import { REMINDER_MAX } from "../reminders/reminder-schedule.js";
import { text } from "./safe-input.js";

/** GET/PUT /api/settings/reminders: the clinic's automatic reminders (decision 059). */
export const reminderSettingsSchema = z.object({
  ativo: z.boolean(),
  maximo: z.number().int(),
  /** The WhatsApp Cloud API is configured on this server: links and reminders can go by WhatsApp. */
  whatsapp_configurado: z.boolean(),
});
export type ReminderSettingsView = z.infer<typeof reminderSettingsSchema>;

export const reminderSettingsInputSchema = z
  .object({
    ativo: z.boolean({ error: "Valor inválido" }).optional(),
    maximo: z
      .number({ error: "Informe um número de lembretes" })
      .int("Informe um número inteiro de lembretes")
      .min(1, "Pelo menos 1 lembrete")
      .max(REMINDER_MAX, `No máximo ${REMINDER_MAX} lembretes`)
      .optional(),
  })
  .strict();
export type ReminderSettingsInput = z.infer<typeof reminderSettingsInputSchema>;

/** WhatsApp delivery statuses as the document page words them. */
export const WHATSAPP_STATUS_LABEL: Readonly<Record<string, string>> = {
  queued: "na fila",
  accepted: "aceita pelo WhatsApp",
  sent: "enviada",
  delivered: "entregue",
  read: "lida",
  failed: "falhou",
};
export const WHATSAPP_KIND_LABEL: Readonly<Record<string, string>> = {
  link: "Link de assinatura",
  codigo: "Código de verificação",
  lembrete: "Lembrete",
  via_assinada: "Via assinada",
  registro: "Registro de recusa ou revogação",
};

/** GET /api/documents/:id/messages: reminders sent and WhatsApp messages with their last status. */
export const documentMessagesSchema = z.object({
  lembretes: z.array(z.object({ ordem: z.number().int(), canais: z.array(text()), enviado_em: text() })),
  whatsapp: z.array(
    z.object({
      id: text(),
      tipo: text(),
      destino: text(),
      status: text(),
      status_em: text().nullable(),
      erro: text().nullable(),
      /** Failed for good: the channel it went by instead (sms, email) or nenhum (decision 066). */
      fallback: z.enum(["sms", "email", "nenhum"]).nullable(),
      criado_em: text(),
    }),
  ),
});
export type DocumentMessages = z.infer<typeof documentMessagesSchema>;
