import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../db/client.js";
import {
  feegowFeaturesSchema,
  feegowImportInputSchema,
  feegowPatientSchema,
  feegowProcedureImportResultSchema,
  feegowProcedureListSchema,
  feegowProfessionalImportResultSchema,
  feegowProfessionalListSchema,
  feegowPatientSearchInputSchema,
  feegowSettingsInputSchema,
  feegowSettingsSchema,
  feegowTestResultSchema,
} from "../../shared/schemas/feegow.js";
import type { Env } from "../env.js";
import type { SecretBox } from "../lib/secret-box.js";
import { currentUser, requireUser, SESSION_COOKIE } from "../plugins/auth.js";
import { authorize } from "../policies/roles.js";
import { getFeegowFeatures, getFeegowSettings } from "../services/feegow/get-feegow-settings.js";
import { saveFeegowSettings } from "../services/feegow/save-feegow-settings.js";
import { importFeegowProcedures } from "../services/feegow/import-feegow-procedures.js";
import { importFeegowProfessionals } from "../services/feegow/import-feegow-professionals.js";
import { listFeegowProcedures } from "../services/feegow/list-feegow-procedures.js";
import { listFeegowProfessionals } from "../services/feegow/list-feegow-professionals.js";
import { removeFeegowToken } from "../services/feegow/remove-feegow-token.js";
import { searchFeegowPatient } from "../services/feegow/search-feegow-patient.js";
import { siteOrigin } from "../lib/origin.js";
import { testFeegowConnection } from "../services/feegow/test-feegow-connection.js";

const tags = ["integração"];

interface FeegowRoutesOptions {
  db: Db;
  env: Env;
  secretBox: SecretBox;
}

/** The clinic-system integration (spec part 2 §2 /integration; decision 016). The browser never calls Feegow itself. */
export const feegowRoutes: FastifyPluginAsyncZod<FeegowRoutesOptions> = async (app, { db, env, secretBox }) => {
  app.addHook("preHandler", requireUser);
  const connection = { baseUrl: env.FEEGOW_URL, timeoutMs: env.FEEGOW_TIMEOUT_MS };
  // Calls that reach Feegow are limited per session (a clinic's staff share one office IP).
  const perSession = (max: number) => ({
    rateLimit: {
      max,
      timeWindow: "1 minute",
      keyGenerator: (request: FastifyRequest) => request.cookies[SESSION_COOKIE] ?? request.ip,
    },
  });
  const auditOf = (request: { ip: string; headers: { "user-agent"?: string } }) => ({
    ip: request.ip,
    userAgent: request.headers["user-agent"],
  });

  app.get(
    "/api/integration/feegow",
    {
      schema: {
        tags,
        summary: "Integração Feegow da clínica: status, chaves e token mascarado (proprietário ou administrador)",
        response: { 200: feegowSettingsSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "integration.manage");
      return getFeegowSettings(db, actor);
    },
  );

  app.put(
    "/api/integration/feegow",
    {
      schema: {
        tags,
        summary:
          "Salva o token (guardado criptografado) e/ou liga e desliga as integrações (proprietário ou administrador)",
        body: feegowSettingsInputSchema,
        response: { 200: feegowSettingsSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "integration.manage");
      return saveFeegowSettings({ db, secretBox, actor, input: request.body, audit: auditOf(request) });
    },
  );

  app.post(
    "/api/integration/feegow/test",
    {
      config: perSession(20),
      schema: {
        tags,
        summary: "Testar conexão: valida o token salvo no Feegow (conectado, ou erro com o motivo)",
        response: { 200: feegowTestResultSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "integration.manage");
      return testFeegowConnection({ db, secretBox, connection, actor, audit: auditOf(request), log: request.log });
    },
  );

  app.delete(
    "/api/integration/feegow/token",
    {
      schema: {
        tags,
        summary: "Remover token: esquece o token, desconecta e desliga as integrações (proprietário ou administrador)",
        response: { 200: feegowSettingsSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "integration.manage");
      return removeFeegowToken(db, actor, auditOf(request));
    },
  );

  app.get(
    "/api/integration/feegow/procedures",
    {
      config: perSession(60),
      schema: {
        tags,
        summary: "Procedimentos do Feegow ao lado dos da clínica (novo, importado, desatualizado)",
        response: { 200: feegowProcedureListSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "integration.manage");
      return listFeegowProcedures(db, secretBox, connection, actor);
    },
  );

  app.post(
    "/api/integration/feegow/procedures/import",
    {
      config: perSession(20),
      schema: {
        tags,
        summary: "Importa procedimentos do Feegow (por nome, sem duplicar; reimportar atualiza o valor)",
        body: feegowImportInputSchema,
        response: { 200: feegowProcedureImportResultSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "integration.manage");
      return importFeegowProcedures({ db, secretBox, connection, actor, input: request.body, audit: auditOf(request) });
    },
  );

  app.get(
    "/api/integration/feegow/professionals",
    {
      config: perSession(60),
      schema: {
        tags,
        summary: "Profissionais ativos do Feegow e quais já são usuários da clínica (estabelecimentos; proprietário)",
        response: { 200: feegowProfessionalListSchema },
      },
    },
    async (request) => {
      // Owner of an establishment only: the users' own check (USERS_OWNER_ONLY, decision 017).
      const actor = currentUser(request);
      return listFeegowProfessionals(db, secretBox, connection, actor);
    },
  );

  app.post(
    "/api/integration/feegow/professionals/import",
    {
      config: perSession(20),
      schema: {
        tags,
        summary: "Importa profissionais do Feegow como usuários convidados por e-mail (pelo CPF, sem duplicar)",
        body: feegowImportInputSchema,
        response: { 200: feegowProfessionalImportResultSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      return importFeegowProfessionals({
        db,
        secretBox,
        connection,
        actor,
        input: request.body,
        context: {
          origin: siteOrigin(env),
          box: secretBox,
          ip: request.ip,
          userAgent: request.headers["user-agent"],
        },
      });
    },
  );

  app.get(
    "/api/integration/feegow/features",
    {
      schema: {
        tags,
        summary: "Quais integrações a equipe pode usar agora (ligadas e com token salvo)",
        response: { 200: feegowFeaturesSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "app.use");
      return getFeegowFeatures(db, actor);
    },
  );

  app.post(
    "/api/integration/feegow/patients/search",
    {
      config: perSession(60),
      schema: {
        tags,
        summary: "Busca um paciente no Feegow pelo CPF, com os campos do cadastro de novo paciente",
        body: feegowPatientSearchInputSchema,
        response: { 200: feegowPatientSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "patients.write");
      return searchFeegowPatient({ db, secretBox, connection, actor, cpf: request.body.cpf, audit: auditOf(request) });
    },
  );
};
