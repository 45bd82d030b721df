import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Db } from "../../db/client.js";
import {
  documentMessagesSchema,
  reminderSettingsInputSchema,
  reminderSettingsSchema,
} from "../../shared/schemas/reminders.js";
import type { Env } from "../env.js";
import { AppError } from "../errors.js";
import { currentUser, requireUser } from "../plugins/auth.js";
import { authorize } from "../policies/roles.js";
import { getDocumentMessages } from "../services/reminders/get-document-messages.js";
import { getReminderSettings, saveReminderSettings } from "../services/reminders/reminder-settings-service.js";
import { whatsappConfigured } from "../services/whatsapp/enqueue-whatsapp.js";
import { receiveWhatsappWebhook } from "../services/whatsapp/whatsapp-webhook.js";

const idParams = z.object({ id: z.uuid("Documento não encontrado") });

/** Automatic reminders (Configurações) and what was sent per document (decision 059). */
export const reminderRoutes: FastifyPluginAsyncZod<{ db: Db; env: Env }> = async (app, { db, env }) => {
  const whatsapp = whatsappConfigured(env);
  app.get(
    "/api/settings/reminders",
    {
      preHandler: requireUser,
      schema: {
        tags: ["configurações"],
        summary: "Lembretes automáticos de documentos não assinados (proprietário ou administrador)",
        response: { 200: reminderSettingsSchema },
      },
    },
    async (request) => getReminderSettings(db, currentUser(request), whatsapp),
  );
  app.put(
    "/api/settings/reminders",
    {
      preHandler: requireUser,
      schema: {
        tags: ["configurações"],
        summary: "Liga ou desliga os lembretes automáticos e escolhe quantos (1 a 3)",
        body: reminderSettingsInputSchema,
        response: { 200: reminderSettingsSchema },
      },
    },
    async (request) =>
      saveReminderSettings({
        db,
        actor: currentUser(request),
        input: request.body,
        whatsapp,
        audit: {
          ip: request.ip,
          userAgent: request.headers["user-agent"],
        },
      }),
  );
  app.get(
    "/api/documents/:id/messages",
    {
      preHandler: requireUser,
      schema: {
        tags: ["documentos"],
        summary: "Lembretes enviados e mensagens de WhatsApp do documento, com o status de entrega",
        params: idParams,
        response: { 200: documentMessagesSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "documents.read");
      return getDocumentMessages(db, actor, request.params.id);
    },
  );

  // Meta's webhook (decision 059), in a scope of its own: its JSON is read as raw bytes, since the
  // signature is over the bytes as sent.
  await app.register(async (scope) => {
    const hook = scope.withTypeProvider<ZodTypeProvider>();
    hook.removeContentTypeParser("application/json");
    hook.addContentTypeParser("application/json", { parseAs: "buffer", bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    hook.get(
      "/api/webhooks/whatsapp",
      {
        schema: {
          tags: ["whatsapp"],
          summary: "Verificação do webhook do WhatsApp (hub.mode, hub.verify_token, hub.challenge)",
          querystring: z.object({
            "hub.mode": z.string().max(40).optional(),
            "hub.verify_token": z.string().max(200).optional(),
            "hub.challenge": z.string().max(200).optional(),
          }),
        },
      },
      async (request, reply) => {
        if (!env.WHATSAPP_VERIFY_TOKEN) throw new AppError("WEBHOOK_NOT_CONFIGURED");
        const q = request.query;
        if (q["hub.mode"] !== "subscribe" || q["hub.verify_token"] !== env.WHATSAPP_VERIFY_TOKEN || !q["hub.challenge"])
          throw new AppError("WEBHOOK_VERIFY_FAILED");
        return reply.type("text/plain; charset=utf-8").send(q["hub.challenge"]);
      },
    );
    hook.post(
      "/api/webhooks/whatsapp",
      {
        schema: {
          tags: ["whatsapp"],
          summary: "Status de entrega do WhatsApp (sent, delivered, read, failed), assinado com X-Hub-Signature-256",
          response: { 200: z.object({ atualizadas: z.number().int() }) },
        },
      },
      async (request) => {
        if (!env.WHATSAPP_APP_SECRET) throw new AppError("WEBHOOK_NOT_CONFIGURED");
        const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers["x-hub-signature-256"];
        return receiveWhatsappWebhook(db, {
          rawBody,
          signature: typeof signature === "string" ? signature : undefined,
          appSecret: env.WHATSAPP_APP_SECRET,
        });
      },
    );
  });
};
