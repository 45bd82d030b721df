import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Db } from "../../db/client.js";
import {
  patientInputSchema,
  patientListQuerySchema,
  patientListSchema,
  patientSchema,
  patientStatsSchema,
} from "../../shared/schemas/patient.js";
import { currentUser, requireUser } from "../plugins/auth.js";
import { authorize } from "../policies/roles.js";
import { createPatient } from "../services/patients/create-patient.js";
import { deletePatient } from "../services/patients/delete-patient.js";
import { getPatient } from "../services/patients/get-patient.js";
import { getPatientStats } from "../services/patients/get-patient-stats.js";
import { listPatients } from "../services/patients/list-patients.js";
import { updatePatient } from "../services/patients/update-patient.js";

const idParams = z.object({ id: z.uuid("Paciente não encontrado") });
const tags = ["pacientes"];

export const patientRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.addHook("preHandler", requireUser);
  const auditOf = (request: { ip: string; headers: { "user-agent"?: string } }) => ({
    ip: request.ip,
    userAgent: request.headers["user-agent"],
  });

  app.get(
    "/api/patients",
    {
      schema: {
        tags,
        summary: "Pacientes da clínica, paginados e buscados no servidor",
        querystring: patientListQuerySchema,
        response: { 200: patientListSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "patients.read");
      return listPatients(db, actor, request.query);
    },
  );

  app.get(
    "/api/patients/stats",
    { schema: { tags, summary: "Os quatro totais da lista de pacientes", response: { 200: patientStatsSchema } } },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "patients.read");
      return getPatientStats(db, actor);
    },
  );

  app.get(
    "/api/patients/:id",
    {
      schema: {
        tags,
        summary: "Um paciente (a visualização vai para a trilha de auditoria)",
        params: idParams,
        response: { 200: patientSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "patients.read");
      return getPatient(db, actor, request.params.id, auditOf(request));
    },
  );

  app.post(
    "/api/patients",
    { schema: { tags, summary: "Cadastra um paciente", body: patientInputSchema, response: { 201: patientSchema } } },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "patients.write");
      return reply.status(201).send(await createPatient(db, actor, request.body, auditOf(request)));
    },
  );

  app.put(
    "/api/patients/:id",
    {
      schema: {
        tags,
        summary: "Atualiza um paciente",
        params: idParams,
        body: patientInputSchema,
        response: { 200: patientSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "patients.write");
      return updatePatient({ db, actor, id: request.params.id, input: request.body, audit: auditOf(request) });
    },
  );

  app.delete(
    "/api/patients/:id",
    { schema: { tags, summary: "Exclui um paciente", params: idParams } },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "patients.delete");
      await deletePatient(db, actor, request.params.id, auditOf(request));
      return reply.status(204).send();
    },
  );
};
