import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { text } from "../../shared/schemas/safe-input.js";
import type { Db } from "../../db/client.js";
import {
  allowedSpecialtiesQuerySchema,
  allowedSpecialtiesSchema,
  platformClinicListSchema,
  templateDetailSchema,
  templateInputSchema,
  templateListQuerySchema,
  templateListSchema,
  templateStatsSchema,
  templateRestoreInputSchema,
  templateStatusInputSchema,
  templateUsageSchema,
  templateVersionDetailSchema,
  templateVersionListSchema,
} from "../../shared/schemas/template.js";
import { currentUser, requireUser } from "../plugins/auth.js";
import { authorize } from "../policies/roles.js";
import { changeTemplateStatus } from "../services/templates/change-template-status.js";
import { createTemplate } from "../services/templates/create-template.js";
import { deleteTemplate } from "../services/templates/delete-template.js";
import { duplicateTemplate } from "../services/templates/duplicate-template.js";
import { getAllowedSpecialties, listPlatformClinics } from "../services/templates/get-allowed-specialties.js";
import { getTemplate } from "../services/templates/get-template.js";
import { getTemplateStats } from "../services/templates/get-template-stats.js";
import { getTemplateUsage } from "../services/templates/get-template-usage.js";
import { listTemplates } from "../services/templates/list-templates.js";
import { listTemplateVersions } from "../services/templates/list-template-versions.js";
import { restoreTemplateVersion } from "../services/templates/restore-template-version.js";
import { getTemplateVersion } from "../services/templates/get-template-version.js";
import { updateTemplate } from "../services/templates/update-template.js";

/** Any string: a malformed id is answered 404 'Template não encontrado' by the service, like another clinic's. */
const idParams = z.object({ id: text().max(100) });
const versionParams = z.object({ id: text().max(100), versionId: text().max(100) });
const tags = ["templates"];

export const templateRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.addHook("preHandler", requireUser);
  const auditOf = (request: { ip: string; headers: { "user-agent"?: string } }) => ({
    ip: request.ip,
    userAgent: request.headers["user-agent"],
  });

  app.get(
    "/api/templates",
    {
      schema: {
        tags,
        summary: "Templates da clínica, mais novos primeiro, paginados e buscados no servidor",
        querystring: templateListQuerySchema,
        response: { 200: templateListSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "templates.read");
      return listTemplates(db, actor, request.query);
    },
  );

  app.get(
    "/api/templates/stats",
    {
      schema: {
        tags,
        summary: "Os quatro totais da lista de templates (clínica inteira)",
        response: { 200: templateStatsSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "templates.read");
      return getTemplateStats(db, actor);
    },
  );

  app.get(
    "/api/templates/specialties",
    {
      schema: {
        tags,
        summary: "Especialidades que o usuário pode dar a um template",
        description:
          "Sem clinica_id: as da clínica do usuário. Com clinica_id de outra clínica: só o administrador da plataforma (403 para os demais; 404 se a clínica não existe).",
        querystring: allowedSpecialtiesQuerySchema,
        response: { 200: allowedSpecialtiesSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "templates.read");
      return getAllowedSpecialties(db, actor, request.query.clinica_id);
    },
  );

  app.get(
    "/api/templates/specialty-clinics",
    {
      schema: {
        tags,
        summary: "Clínicas que o administrador da plataforma pode escolher para listar especialidades",
        response: { 200: platformClinicListSchema },
      },
    },
    async (request) => listPlatformClinics(db, currentUser(request)),
  );

  app.post(
    "/api/templates",
    {
      schema: {
        tags,
        summary: "Cria um template (rascunho, versão 1)",
        body: templateInputSchema,
        response: { 201: templateDetailSchema },
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "templates.write");
      return reply.status(201).send(await createTemplate(db, actor, request.body, auditOf(request)));
    },
  );

  app.get(
    "/api/templates/:id",
    {
      schema: {
        tags,
        summary: "Um template com o conteúdo da versão atual",
        params: idParams,
        response: { 200: templateDetailSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "templates.read");
      return getTemplate(db, actor, request.params.id);
    },
  );

  app.put(
    "/api/templates/:id",
    {
      schema: {
        tags,
        summary: "Salva o template: sempre cria uma nova versão imutável",
        params: idParams,
        body: templateInputSchema,
        response: { 200: templateDetailSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "templates.write");
      return updateTemplate({ db, actor, id: request.params.id, input: request.body, audit: auditOf(request) });
    },
  );

  app.post(
    "/api/templates/:id/duplicate",
    {
      schema: {
        tags,
        summary: "Duplica o template (rascunho, versão 1)",
        params: idParams,
        response: { 201: templateDetailSchema },
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "templates.write");
      return reply.status(201).send(await duplicateTemplate(db, actor, request.params.id, auditOf(request)));
    },
  );

  app.delete(
    "/api/templates/:id",
    {
      schema: {
        tags,
        summary: "Exclui o template e suas versões (bloqueado se algum documento usa uma versão)",
        params: idParams,
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "templates.write");
      await deleteTemplate(db, actor, request.params.id, auditOf(request));
      return reply.status(204).send();
    },
  );

  app.post(
    "/api/templates/:id/status",
    {
      schema: {
        tags,
        summary: "Muda o status do template (publicar exige permissão de publicação)",
        params: idParams,
        body: templateStatusInputSchema,
        response: { 200: templateDetailSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, request.body.status === "published" ? "templates.publish" : "templates.write");
      return changeTemplateStatus({
        db,
        actor,
        id: request.params.id,
        to: request.body.status,
        audit: auditOf(request),
      });
    },
  );

  app.get(
    "/api/templates/:id/versions",
    {
      schema: {
        tags,
        summary: "Histórico de versões, da mais nova para a mais antiga",
        params: idParams,
        response: { 200: templateVersionListSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "templates.read");
      return listTemplateVersions(db, actor, request.params.id);
    },
  );

  app.get(
    "/api/templates/:id/versions/:versionId",
    {
      schema: {
        tags,
        summary: "Uma versão com o seu conteúdo (para comparar versões)",
        params: versionParams,
        response: { 200: templateVersionDetailSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "templates.read");
      return getTemplateVersion(db, actor, request.params.id, request.params.versionId);
    },
  );

  app.post(
    "/api/templates/:id/restore",
    {
      schema: {
        tags,
        summary: "Restaura uma versão: cria uma NOVA versão com o conteúdo dela (o histórico não muda)",
        params: idParams,
        body: templateRestoreInputSchema,
        response: { 200: templateDetailSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "templates.write");
      return restoreTemplateVersion({
        db,
        actor,
        templateId: request.params.id,
        versionId: request.body.versao_id,
        audit: auditOf(request),
      });
    },
  );

  app.get(
    "/api/templates/:id/statistics",
    {
      schema: {
        tags,
        summary: "Estatísticas de uso do template (documentos de todas as versões)",
        params: idParams,
        response: { 200: templateUsageSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "templates.read");
      return getTemplateUsage(db, actor, request.params.id);
    },
  );
};
