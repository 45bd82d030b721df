import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { text } from "../../shared/schemas/safe-input.js";
import type { Db } from "../../db/client.js";
import {
  contactFixInputSchema,
  professionalBatchCodeInputSchema,
  professionalBatchSignatureInputSchema,
  professionalSignatureInputSchema,
  sendCheckSchema,
  sendInputSchema,
  signatureSummarySchema,
  signingLinkSchema,
} from "../../shared/schemas/signing.js";
import { PROFESSIONAL_ORDERS } from "../../shared/signing-rules.js";
import type { Env } from "../env.js";
import { AppError } from "../errors.js";
import { siteOrigin } from "../lib/origin.js";
import type { SecretBox } from "../lib/secret-box.js";
import { currentUser, requireUser } from "../plugins/auth.js";
import { authorize, can } from "../policies/roles.js";
import { signingCodeKey } from "../services/signing/signing-codes.js";
import { checkSending } from "../services/signing/check-sending.js";
import { emailCurrentLink } from "../services/signing/email-current-link.js";
import { getSigningLink } from "../services/signing/get-signing-link.js";
import { getSigningSettings } from "../services/signing/get-signing-settings.js";
import { listSignatures } from "../services/signing/list-signatures.js";
import { fixContactAndResend } from "../services/signing/fix-contact.js";
import { resendDocument } from "../services/signing/resend-document.js";
import { saveSigningSettings } from "../services/signing/save-signing-settings.js";
import { sendDocument } from "../services/signing/send-document.js";
import { whatsappConfigured } from "../services/whatsapp/enqueue-whatsapp.js";
import { signAsProfessional, signManyAsProfessional } from "../services/signing/sign-as-professional.js";
import {
  sendProfessionalSigningCode,
  sendProfessionalSigningCodes,
} from "../services/signing/professional-signing-code.js";
import { startFrontDeskSigning } from "../services/signing/start-front-desk-signing.js";
import { emailChannelOf } from "../services/signing/signing-settings.js";
import type { FileStorage } from "../storage/file-storage.js";
import { clientPort } from "../lib/client-port.js";
import { playDocumentAudio } from "../services/documents/play-document-audio.js";

const idParams = z.object({ id: z.uuid("Documento não encontrado") });
const signingSettingsSchema = z
  .object({
    codigo_email: z.boolean({ error: "Informe se o código por e-mail é exigido" }).optional(),
    ordem_profissional: z
      .enum(PROFESSIONAL_ORDERS, {
        error: "Escolha quando o profissional assina: antes do envio, depois do paciente ou em qualquer ordem",
      })
      .optional(),
    codigo_profissional: z
      .boolean({ error: "Informe se o código do profissional é exigido para assinar como profissional" })
      .optional(),
  })
  .refine(
    (value) =>
      value.codigo_email !== undefined ||
      value.ordem_profissional !== undefined ||
      value.codigo_profissional !== undefined,
    {
      message: "Informe a opção de assinatura a alterar",
    },
  );
const signingSettingsViewSchema = z.object({
  codigo_email: z.boolean(),
  ordem_profissional: z.enum(PROFESSIONAL_ORDERS),
  codigo_profissional: z.boolean(),
  email_configurado: z.boolean(),
  email_entregavel: z.boolean(),
  codigo_disponivel: z.boolean(),
  sms_configurado: z.boolean(),
});
const professionalSignatureSchema = z.object({
  assinou_em: text(),
  metodo_assinatura: z.enum(["eletronica", "ICP-Brasil"]),
  nivel_assinatura: z.enum(["avancada", "simples"]),
  documento_assinado: z.boolean(),
});
const batchRowSchema = z.object({
  id: z.uuid(),
  ok: z.boolean(),
  assinatura: professionalSignatureSchema.optional(),
  erro: z.object({ codigo: text(), status: z.number().int(), mensagem: text() }).optional(),
});
const linkQuery = z.object({ via: z.enum(["ver", "copiar", "whatsapp", "qr"]).default("ver") });
const tags = ["assinatura"];

interface SigningStaffOptions {
  db: Db;
  env: Env;
  storage: FileStorage;
  secretBox: SecretBox;
}

/** Staff side of signing: send/resend the link, copy it again, the Signatures block, the clinic's signing setting. */
export const signingStaffRoutes: FastifyPluginAsyncZod<SigningStaffOptions> = async (
  app,
  { db, env, storage, secretBox },
) => {
  app.addHook("preHandler", requireUser);
  const channel = emailChannelOf(env);
  const auditOf = (request: { ip: string; headers: { "user-agent"?: string } }) => ({
    ip: request.ip,
    userAgent: request.headers["user-agent"],
  });

  app.post(
    "/api/documents/:id/send",
    {
      schema: {
        tags,
        summary:
          "Envia para assinatura: rascunho → enviado, gera o link (e, se pedido, o envia por e-mail ao paciente)",
        params: idParams,
        body: sendInputSchema.nullish(),
        response: { 200: signingLinkSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "documents.write");
      const email = request.body?.email ?? false;
      // Decision 059: with the WhatsApp Cloud API configured the link goes by WhatsApp too, unless asked not to.
      const whatsapp = whatsappConfigured(env) && request.body?.whatsapp !== false;
      return sendDocument({
        db,
        secretBox,
        actor,
        id: request.params.id,
        input: { email, whatsapp, sms: request.body?.sms === true, origin: siteOrigin(env), channel },
        audit: auditOf(request),
      });
    },
  );

  app.get(
    "/api/documents/:id/send-check",
    {
      schema: {
        tags,
        summary:
          "Antes de Enviar/Reenviar: o que impediria o envio (CPF, responsável legal, declaração do profissional) e se o e-mail é possível",
        params: idParams,
        response: { 200: sendCheckSchema },
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "documents.write");
      reply.header("cache-control", "private, no-store");
      return checkSending(db, actor, request.params.id);
    },
  );

  app.post(
    "/api/documents/:id/front-desk",
    {
      schema: {
        tags,
        summary:
          "Assinar neste aparelho: bloqueia a sessão da equipe e devolve o caminho da página de assinatura do paciente (presencial)",
        params: idParams,
        body: z.object({}).strict().nullish(),
        response: { 200: z.object({ caminho: text() }) },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "documents.write");
      return startFrontDeskSigning({ db, secretBox, actor, id: request.params.id, audit: auditOf(request) });
    },
  );

  app.post(
    "/api/documents/:id/resend",
    {
      schema: {
        tags,
        summary: "Reenvia: novo link para documento enviado ou visualizado; o link anterior deixa de funcionar",
        params: idParams,
        body: sendInputSchema.nullish(),
        response: { 200: signingLinkSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "documents.write");
      const email = request.body?.email ?? false;
      const whatsapp = whatsappConfigured(env) && request.body?.whatsapp !== false;
      return resendDocument({
        db,
        secretBox,
        actor,
        id: request.params.id,
        input: { email, whatsapp, sms: request.body?.sms === true, origin: siteOrigin(env), channel },
        audit: auditOf(request),
      });
    },
  );

  app.post(
    "/api/documents/:id/contact",
    {
      schema: {
        tags,
        summary:
          "Corrige o e-mail e/ou o celular do paciente e reenvia: novo link pelo contato corrigido; o link anterior e os códigos pendentes deixam de funcionar",
        params: idParams,
        body: contactFixInputSchema,
        response: { 200: signingLinkSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "documents.write");
      authorize(actor, "patients.write");
      const whatsapp = whatsappConfigured(env) && request.body.whatsapp !== false;
      return fixContactAndResend({
        db,
        secretBox,
        actor,
        id: request.params.id,
        input: {
          contact: { email: request.body.email, telefone: request.body.telefone },
          email: request.body.enviar_email,
          whatsapp,
          sms: request.body.sms === true,
          origin: siteOrigin(env),
          channel,
        },
        audit: auditOf(request),
      });
    },
  );

  app.get(
    "/api/documents/:id/link",
    {
      schema: {
        tags,
        summary: "O link de assinatura vigente (Copiar Link, WhatsApp), ou 404 'Token de assinatura não gerado'",
        params: idParams,
        querystring: linkQuery,
        response: { 200: signingLinkSchema },
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "documents.read");
      reply.header("cache-control", "private, no-store");
      return getSigningLink({
        db,
        secretBox,
        actor,
        id: request.params.id,
        origin: siteOrigin(env),
        channel,
        audit: {
          ...auditOf(request),
          via: request.query.via,
        },
      });
    },
  );

  app.post(
    "/api/documents/:id/email-link",
    {
      schema: {
        tags,
        summary: "Envia por e-mail ao paciente o link de assinatura vigente (sem trocá-lo)",
        params: idParams,
        response: { 200: signingLinkSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "documents.write");
      return emailCurrentLink({
        db,
        secretBox,
        actor,
        id: request.params.id,
        origin: siteOrigin(env),
        channel,
        audit: auditOf(request),
      });
    },
  );

  app.get(
    "/api/documents/:id/signatures",
    {
      schema: {
        tags,
        summary: "Bloco de assinaturas: quem assinou, quando, como e de onde (CPF completo, IP, navegador, imagem)",
        params: idParams,
        response: { 200: z.object({ items: z.array(signatureSummarySchema) }) },
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "documents.read");
      reply.header("cache-control", "private, no-store");
      return { items: await listSignatures(db, storage, actor, request.params.id) };
    },
  );

  // Decision 069: the audio of the agreement kept with a signature; each GET is a play in the trail.
  app.get(
    "/api/documents/:id/parties/:parteId/audio",
    {
      schema: {
        tags,
        summary:
          "Reproduz o áudio do aceite gravado pelo signatário (cada reprodução fica na trilha de auditoria; não disponível para atendentes)",
        params: idParams.extend({ parteId: z.uuid("Assinatura não encontrada") }),
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "documents.playAudio");
      const audio = await playDocumentAudio({
        ctx: { db, storage, secretBox },
        actor,
        contratoId: request.params.id,
        parteId: request.params.parteId,
        audit: auditOf(request),
      });
      return reply
        .header("content-type", audio.mime)
        .header("cache-control", "private, no-store")
        .header("x-content-type-options", "nosniff")
        .header("content-disposition", `inline; filename="${audio.nome}"`)
        .send(audio.bytes);
    },
  );

  app.post(
    "/api/documents/:id/professional-signature",
    {
      schema: {
        tags,
        summary:
          "O profissional responsável assina a declaração do profissional (senha digitada de novo), quando a clínica escolheu (decisão 050); se for a última assinatura, conclui o documento",
        params: idParams,
        body: professionalSignatureInputSchema,
        response: { 200: professionalSignatureSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "documents.read");
      return signAsProfessional({
        db,
        codeKey: signingCodeKey(secretBox),
        actor,
        id: request.params.id,
        password: request.body.senha,
        audit: { ...auditOf(request), port: clientPort(request, env.CLIENT_PORT_HEADER) ?? undefined },
        withCertificate: request.body.com_certificado ? { secretBox } : null,
        codigo: request.body.codigo,
        channel,
      });
    },
  );

  app.post(
    "/api/documents/professional-signatures",
    {
      schema: {
        tags,
        summary:
          "Assinatura em lote: o profissional responsável assina várias declarações com uma senha e um código; um resultado por documento (decisão 050)",
        body: professionalBatchSignatureInputSchema,
        response: { 200: z.object({ items: z.array(batchRowSchema) }) },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "documents.read");
      const items = await signManyAsProfessional({
        db,
        codeKey: signingCodeKey(secretBox),
        actor,
        input: { ids: request.body.ids, password: request.body.senha },
        audit: { ...auditOf(request), port: clientPort(request, env.CLIENT_PORT_HEADER) ?? undefined },
        withCertificate: request.body.com_certificado ? { secretBox } : null,
        codigo: request.body.codigo,
        channel,
      });
      return { items };
    },
  );

  app.post(
    "/api/documents/professional-signatures/code",
    {
      schema: {
        tags,
        summary:
          "Um código de 6 dígitos, num só e-mail ao profissional, para assinar em lote as declarações escolhidas (decisões 042 e 050)",
        body: professionalBatchCodeInputSchema,
        response: {
          200: z.object({
            enviado: z.literal(true),
            canal: z.literal("email"),
            destino: text(),
            ids: z.array(z.uuid()),
            recusados: z.array(z.object({ id: z.uuid(), codigo: text(), mensagem: text() })),
          }),
        },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "documents.read");
      const sent = await sendProfessionalSigningCodes({
        db,
        box: secretBox,
        channel,
        actor,
        ids: request.body.ids,
        audit: auditOf(request),
      });
      return {
        ...sent,
        recusados: sent.recusados.map(({ id, error }) => ({ id, codigo: error.code, mensagem: error.message })),
      };
    },
  );

  app.post(
    "/api/documents/:id/professional-signature/code",
    {
      schema: {
        tags,
        summary:
          "Envia ao e-mail da conta do profissional responsável um código de 6 dígitos para assinar a declaração (segundo fator, decisão 042)",
        params: idParams,
        body: z.object({}).strict().nullish(),
        response: { 200: z.object({ enviado: z.literal(true), canal: z.literal("email"), destino: text() }) },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "documents.read");
      return sendProfessionalSigningCode({
        db,
        box: secretBox,
        channel,
        actor,
        id: request.params.id,
        audit: auditOf(request),
      });
    },
  );

  app.get(
    "/api/settings/signing",
    {
      schema: {
        tags,
        summary: "Opções de assinatura da clínica (código por e-mail) e se este servidor entrega e-mails e códigos",
        response: { 200: signingSettingsViewSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "documents.read");
      return getSigningSettings(db, actor, channel);
    },
  );

  app.put(
    "/api/settings/signing",
    {
      schema: {
        tags,
        summary:
          "Liga ou desliga o código por e-mail antes de assinar e escolhe quando o profissional assina (proprietário ou administrador)",
        body: signingSettingsSchema,
        response: { 200: signingSettingsViewSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      if (!can(actor, "documents.chooseResponsiblePhysician")) throw new AppError("FORBIDDEN");
      return saveSigningSettings({ db, actor, channel, input: request.body, audit: auditOf(request) });
    },
  );
};
