import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../db/client.js";
import { withTenant } from "../../db/tenant-scope.js";
import {
  BULK_SEND_MAX_ROWS,
  bulkSendInputSchema,
  bulkSendOptionsSchema,
  bulkSendResultSchema,
} from "../../shared/schemas/bulk-send.js";
import type { Env } from "../env.js";
import { siteOrigin } from "../lib/origin.js";
import type { SecretBox } from "../lib/secret-box.js";
import { currentUser, requireUser } from "../plugins/auth.js";
import { authorize } from "../policies/roles.js";
import { bulkSend, bulkSendRefusal } from "../services/documents/bulk-send.js";
import { emailChannelOf } from "../services/signing/signing-settings.js";
import { whatsappConfigured } from "../services/whatsapp/enqueue-whatsapp.js";

const tags = ["documentos"];

/** Enviar em lote (decision 076): one document per patient from a template, created and sent. */
export const bulkSendRoutes: FastifyPluginAsyncZod<{ db: Db; env: Env; secretBox: SecretBox }> = async (
  app,
  { db, env, secretBox },
) => {
  app.addHook("preHandler", requireUser);
  const channel = emailChannelOf(env);

  app.get(
    "/api/documents/bulk/options",
    {
      schema: {
        tags,
        summary: "Envio em lote: limite de pacientes, canais disponíveis e se a clínica permite",
        response: { 200: bulkSendOptionsSchema },
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "documents.write");
      reply.header("cache-control", "private, no-store");
      const refusal = await withTenant(db, actor.tenantId, (tx) => bulkSendRefusal(tx, actor.tenantId));
      return {
        max_linhas: BULK_SEND_MAX_ROWS,
        agora: new Date().toISOString(),
        email_disponivel: channel.usable,
        whatsapp_disponivel: whatsappConfigured(env),
        sms_disponivel: channel.sms,
        profissional_antes_do_envio: refusal !== null,
      };
    },
  );

  app.post(
    "/api/documents/bulk",
    {
      schema: {
        tags,
        summary: `Envio em lote: cria e envia um documento por paciente (até ${BULK_SEND_MAX_ROWS}), com o resultado de cada linha`,
        body: bulkSendInputSchema,
        response: { 200: bulkSendResultSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "documents.write");
      return bulkSend({
        db,
        secretBox,
        actor,
        input: request.body,
        channels: { origin: siteOrigin(env), channel, whatsappConfigured: whatsappConfigured(env) },
        audit: { ip: request.ip, userAgent: request.headers["user-agent"] },
        log: request.log,
      });
    },
  );
};
