import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Db } from "../../db/client.js";
import { optionalItemParam, staffChoiceInputSchema } from "../../shared/schemas/choices.js";
import { text } from "../../shared/schemas/safe-input.js";
import { currentUser, requireUser } from "../plugins/auth.js";
import { authorize } from "../policies/roles.js";
import { recordStaffChoice } from "../services/choices/record-staff-choice.js";

const idParams = z.object({ id: z.uuid("Documento não encontrado") });
const recorded = z.object({ registro_id: text(), codigo_verificacao: text() });
const tags = ["documentos"];

/** Staff record a refusal or a revocation the patient told them of (decision 056). */
export const documentChoiceRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.addHook("preHandler", requireUser);
  const auditOf = (request: { ip: string; headers: { "user-agent"?: string } }) => ({
    ip: request.ip,
    userAgent: request.headers["user-agent"],
  });

  app.post(
    "/api/documents/:id/refusal",
    {
      schema: {
        tags,
        summary:
          "Registra a recusa informada do paciente comunicada à equipe (pessoalmente ou por telefone); gera o Registro de recusa selado",
        params: idParams,
        body: staffChoiceInputSchema,
        response: { 201: recorded },
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "documents.write");
      const result = await recordStaffChoice({
        db,
        actor,
        input: { id: request.params.id, tipo: "recusa", data: request.body },
        audit: auditOf(request),
      });
      return reply.status(201).send(result);
    },
  );

  app.post(
    "/api/documents/:id/revocation",
    {
      schema: {
        tags,
        summary:
          "Registra a revogação de um consentimento assinado comunicada à equipe; o PDF assinado não muda, um Registro de revogação selado é gerado",
        params: idParams,
        body: staffChoiceInputSchema,
        response: { 201: recorded },
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "documents.write");
      const result = await recordStaffChoice({
        db,
        actor,
        input: { id: request.params.id, tipo: "revogacao", data: request.body },
        audit: auditOf(request),
      });
      return reply.status(201).send(result);
    },
  );

  app.post(
    "/api/documents/:id/optional-consents/:item/revocation",
    {
      schema: {
        tags,
        summary:
          "Registra a revogação de uma autorização opcional (respondida com “Sim”) comunicada à equipe; o consentimento principal não muda, um Registro de revogação selado da autorização é gerado",
        params: idParams.extend({ item: optionalItemParam }),
        body: staffChoiceInputSchema,
        response: { 201: recorded },
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "documents.write");
      const result = await recordStaffChoice({
        db,
        actor,
        input: { id: request.params.id, tipo: "revogacao", data: request.body, itemId: request.params.item },
        audit: auditOf(request),
      });
      return reply.status(201).send(result);
    },
  );
};
