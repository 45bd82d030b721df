import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Db } from "../../db/client.js";
import {
  createdWebhookEndpointSchema,
  rotatedWebhookSecretSchema,
  webhookDeliverySchema,
  webhookEndpointInputSchema,
  webhookEndpointSchema,
  webhookEndpointUpdateSchema,
  webhookTestEventInputSchema,
} from "../../shared/schemas/webhooks.js";
import type { Env } from "../env.js";
import type { SecretBox } from "../lib/secret-box.js";
import { currentUser, requireUser } from "../plugins/auth.js";
import { authorize } from "../policies/roles.js";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookSecret,
  updateWebhookEndpoint,
} from "../services/webhooks/manage-webhook-endpoints.js";
import {
  listWebhookDeliveries,
  resendWebhookDelivery,
  sendWebhookTestEvent,
} from "../services/webhooks/webhook-deliveries.js";

const tags = ["webhooks"];
const idParams = z.object({ id: z.uuid("Endpoint de webhook não encontrado") });
const deliveryParams = idParams.extend({ deliveryId: z.uuid("Entrega de webhook não encontrada") });

/**
 * Configurações → Webhooks (owner and administrators, decision 062): with a session or an API key
 * of a role that may manage the settings.
 */
export const webhookRoutes: FastifyPluginAsyncZod<{ db: Db; env: Env; secretBox: SecretBox }> = async (
  app,
  { db, env, secretBox },
) => {
  app.addHook("preHandler", requireUser);
  // Every route here is the clinic's settings: one check for all of them (owner or administrator).
  app.addHook("preHandler", async (request) => authorize(currentUser(request), "settings.manage"));
  const settings = { db, secretBox, production: env.NODE_ENV === "production" };
  const auditOf = (request: { ip: string; headers: { "user-agent"?: string } }) => ({
    ip: request.ip,
    userAgent: request.headers["user-agent"],
  });

  app.get(
    "/api/settings/webhooks",
    {
      schema: {
        tags,
        summary: "Endpoints de webhook da clínica (proprietário ou administrador)",
        response: { 200: z.array(webhookEndpointSchema) },
      },
    },
    async (request) => listWebhookEndpoints(db, currentUser(request)),
  );

  app.post(
    "/api/settings/webhooks",
    {
      schema: {
        tags,
        summary: "Cria um endpoint de webhook; o segredo de assinatura aparece só nesta resposta",
        body: webhookEndpointInputSchema,
        response: { 201: createdWebhookEndpointSchema },
      },
    },
    async (request, reply) => {
      const created = await createWebhookEndpoint(settings, currentUser(request), request.body, auditOf(request));
      return reply.status(201).send(created);
    },
  );

  app.patch(
    "/api/settings/webhooks/:id",
    {
      schema: {
        tags,
        summary: "Altera URL, descrição ou eventos; ativo: true reativa um endpoint desativado",
        params: idParams,
        body: webhookEndpointUpdateSchema,
        response: { 200: webhookEndpointSchema },
      },
    },
    async (request) =>
      updateWebhookEndpoint({
        settings,
        actor: currentUser(request),
        id: request.params.id,
        input: request.body,
        audit: auditOf(request),
      }),
  );

  app.delete(
    "/api/settings/webhooks/:id",
    {
      schema: {
        tags,
        summary: "Exclui um endpoint de webhook e o registro das suas entregas",
        params: idParams,
      },
    },
    async (request, reply) => {
      await deleteWebhookEndpoint(db, currentUser(request), request.params.id, auditOf(request));
      return reply.status(204).send();
    },
  );

  app.post(
    "/api/settings/webhooks/:id/rotate-secret",
    {
      schema: {
        tags,
        summary:
          "Troca o segredo de assinatura; o novo aparece só nesta resposta e o anterior ainda assina, junto com ele, por 24 horas",
        params: idParams,
        response: { 200: rotatedWebhookSecretSchema },
      },
    },
    async (request) =>
      rotateWebhookSecret({ settings, actor: currentUser(request), id: request.params.id, audit: auditOf(request) }),
  );

  app.get(
    "/api/settings/webhooks/:id/deliveries",
    {
      schema: {
        tags,
        summary: "As últimas 50 entregas do endpoint: status, resposta HTTP, duração e tentativas",
        params: idParams,
        response: { 200: z.array(webhookDeliverySchema) },
      },
    },
    async (request) => listWebhookDeliveries(db, currentUser(request), request.params.id),
  );

  app.post(
    "/api/settings/webhooks/:id/deliveries/:deliveryId/resend",
    {
      schema: {
        tags,
        summary: "Reenviar: tenta a entrega de novo agora (mesmo webhook-id e corpo)",
        params: deliveryParams,
        response: { 200: webhookDeliverySchema },
      },
    },
    async (request) =>
      resendWebhookDelivery({
        db,
        actor: currentUser(request),
        endpointId: request.params.id,
        deliveryId: request.params.deliveryId,
        audit: auditOf(request),
      }),
  );

  app.post(
    "/api/settings/webhooks/:id/test",
    {
      schema: {
        tags,
        summary:
          "Enviar evento de teste: uma entrega webhook.test (só o id do endpoint), assinada e registrada, tentada uma vez",
        params: idParams,
        body: webhookTestEventInputSchema,
        response: { 202: webhookDeliverySchema },
      },
    },
    async (request, reply) => {
      const delivery = await sendWebhookTestEvent({
        db,
        actor: currentUser(request),
        endpointId: request.params.id,
        audit: auditOf(request),
      });
      return reply.status(202).send(delivery);
    },
  );
};
