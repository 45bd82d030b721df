import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { text } from "../../shared/schemas/safe-input.js";
import type { Db } from "../../db/client.js";
import {
  procedureAssociationsSchema,
  procedureInputSchema,
  procedureListQuerySchema,
  procedureListSchema,
  procedureSchema,
} from "../../shared/schemas/procedure.js";
import { currentUser, requireUser } from "../plugins/auth.js";
import { authorize } from "../policies/roles.js";
import { createProcedure } from "../services/procedures/create-procedure.js";
import { deleteProcedure } from "../services/procedures/delete-procedure.js";
import { getProcedure } from "../services/procedures/get-procedure.js";
import { getProcedureAssociations } from "../services/procedures/get-procedure-associations.js";
import { listProcedures } from "../services/procedures/list-procedures.js";
import { saveProcedureAssociations } from "../services/procedures/save-procedure-associations.js";
import { updateProcedure } from "../services/procedures/update-procedure.js";

const idParams = z.object({ id: z.uuid("Procedimento não encontrado") });
const associationsSchema = z.object({
  riscos: z.array(text()),
  beneficios: z.array(text()),
  cuidados: z.array(text()),
});
const tags = ["procedimentos"];

export const procedureRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.addHook("preHandler", requireUser);
  const auditOf = (request: { ip: string; headers: { "user-agent"?: string } }) => ({
    ip: request.ip,
    userAgent: request.headers["user-agent"],
  });

  app.get(
    "/api/procedures",
    {
      schema: {
        tags,
        summary: "Procedimentos visíveis ao usuário, por nome (até 200)",
        querystring: procedureListQuerySchema,
        response: { 200: procedureListSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "procedures.read");
      return listProcedures(db, actor, request.query);
    },
  );

  app.get(
    "/api/procedures/:id",
    { schema: { tags, summary: "Um procedimento", params: idParams, response: { 200: procedureSchema } } },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "procedures.read");
      return getProcedure(db, actor, request.params.id);
    },
  );

  app.post(
    "/api/procedures",
    {
      schema: {
        tags,
        summary: "Cadastra um procedimento (privado só para profissional ou proprietário)",
        body: procedureInputSchema,
        response: { 201: procedureSchema },
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "procedures.write");
      return reply.status(201).send(await createProcedure(db, actor, request.body, auditOf(request)));
    },
  );

  app.put(
    "/api/procedures/:id",
    {
      schema: {
        tags,
        summary: "Atualiza um procedimento",
        params: idParams,
        body: procedureInputSchema,
        response: { 200: procedureSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "procedures.write");
      return updateProcedure({ db, actor, id: request.params.id, input: request.body, audit: auditOf(request) });
    },
  );

  app.delete(
    "/api/procedures/:id",
    { schema: { tags, summary: "Exclui um procedimento e suas associações", params: idParams } },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "procedures.write");
      await deleteProcedure(db, actor, request.params.id, auditOf(request));
      return reply.status(204).send();
    },
  );

  app.get(
    "/api/procedures/:id/associations",
    {
      schema: {
        tags,
        summary: "Riscos, benefícios e cuidados associados (ids)",
        params: idParams,
        response: { 200: associationsSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "procedures.read");
      return getProcedureAssociations(db, actor, request.params.id);
    },
  );

  app.put(
    "/api/procedures/:id/associations",
    {
      schema: {
        tags,
        summary: "Substitui todas as associações do procedimento",
        params: idParams,
        body: procedureAssociationsSchema,
        response: { 200: associationsSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "procedures.write");
      return saveProcedureAssociations({
        db,
        actor,
        id: request.params.id,
        input: request.body,
        audit: auditOf(request),
      });
    },
  );
};
