import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Db } from "../../db/client.js";
import { witnessLinkSchema } from "../../shared/schemas/signing.js";
import type { Env } from "../env.js";
import { siteOrigin } from "../lib/origin.js";
import type { SecretBox } from "../lib/secret-box.js";
import { getWitnessLink } from "../services/witnesses/get-witness-link.js";
import { witnessInputSchema, witnessListSchema, witnessSchema } from "../../shared/schemas/witness.js";
import { currentUser, requireUser } from "../plugins/auth.js";
import { authorize } from "../policies/roles.js";
import { addWitness } from "../services/witnesses/add-witness.js";
import { listWitnesses } from "../services/witnesses/list-witnesses.js";
import { removeWitness } from "../services/witnesses/remove-witness.js";
import { removeARogo, setARogo } from "../services/witnesses/a-rogo.js";
import { aRogoInputSchema, A_ROGO_MOTIVOS } from "../../shared/schemas/a-rogo.js";

const idParams = z.object({ id: z.uuid("Documento não encontrado") });
const witnessParams = idParams.extend({ witnessId: z.uuid("Testemunha não encontrada") });
const tags = ["assinatura"];

/** Optional witnesses of a document (decision 021): named on the draft, each signs by their own link. */
export const witnessRoutes: FastifyPluginAsyncZod<{ db: Db; env: Env; secretBox: SecretBox }> = async (
  app,
  { db, env, secretBox },
) => {
  app.addHook("preHandler", requireUser);
  const auditOf = (request: { ip: string; headers: { "user-agent"?: string } }) => ({
    ip: request.ip,
    userAgent: request.headers["user-agent"],
  });

  app.get(
    "/api/documents/:id/witnesses",
    {
      schema: {
        tags,
        summary: "Testemunhas do documento e quem já assinou",
        params: idParams,
        response: { 200: witnessListSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "documents.read");
      return listWitnesses(db, actor, request.params.id);
    },
  );

  app.post(
    "/api/documents/:id/witnesses",
    {
      schema: {
        tags,
        summary: "Adiciona uma testemunha ao rascunho (no máximo 2)",
        params: idParams,
        body: witnessInputSchema,
        response: { 201: witnessSchema },
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "documents.write");
      const witness = await addWitness({
        db,
        actor,
        id: request.params.id,
        input: request.body,
        audit: auditOf(request),
      });
      return reply.code(201).send(witness);
    },
  );

  app.delete(
    "/api/documents/:id/witnesses/:witnessId",
    { schema: { tags, summary: "Remove uma testemunha do rascunho", params: witnessParams } },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "documents.write");
      await removeWitness({
        db,
        actor,
        id: request.params.id,
        witnessId: request.params.witnessId,
        audit: auditOf(request),
      });
      return reply.code(204).send();
    },
  );

  app.get(
    "/api/documents/:id/witnesses/:witnessId/link",
    {
      schema: {
        tags,
        summary: "O link de assinatura atual de uma testemunha (cada consulta fica na trilha de auditoria)",
        params: witnessParams,
        response: { 200: witnessLinkSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "documents.write");
      return getWitnessLink({
        db,
        secretBox,
        actor,
        id: request.params.id,
        witnessId: request.params.witnessId,
        origin: siteOrigin(env),
        audit: auditOf(request),
      });
    },
  );

  // Decision 070: who signs "a rogo" for a patient who cannot read or sign, named on the draft.
  app.put(
    "/api/documents/:id/a-rogo",
    {
      schema: {
        tags,
        summary: "Define, no rascunho, quem assina a rogo do paciente (nome, CPF e o motivo)",
        params: idParams,
        body: aRogoInputSchema,
        response: { 200: z.object({ nome: z.string(), cpf: z.string(), motivo: z.enum(A_ROGO_MOTIVOS) }) },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "documents.write");
      return setARogo({ db, actor, id: request.params.id, input: request.body, audit: auditOf(request) });
    },
  );

  app.delete(
    "/api/documents/:id/a-rogo",
    { schema: { tags, summary: "Remove a assinatura a rogo do rascunho", params: idParams } },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "documents.write");
      await removeARogo(db, actor, request.params.id, auditOf(request));
      return reply.code(204).send();
    },
  );
};
