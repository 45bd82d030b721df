import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { text } from "../../shared/schemas/safe-input.js";
import type { Db } from "../../db/client.js";
import {
  sendCodeInputSchema,
  signingPageSchema,
  signInputSchema,
  verifyCodeInputSchema,
} from "../../shared/schemas/signing.js";
import type { SecretBox } from "../lib/secret-box.js";
import type { Env } from "../env.js";
import { AppError } from "../errors.js";
import { clientPort } from "../lib/client-port.js";
import { countRequest, rateLimitNamespace, type RateLimitRule } from "../plugins/rate-limit-store.js";
import { getSignerSignedPdf, signerSignedPdfReady } from "../services/signing/get-signer-signed-pdf.js";
import { embedOriginsForToken } from "../services/embedding/embed-settings.js";
import { openSigningPage } from "../services/signing/open-signing-page.js";
import { codeDelivery } from "../services/signing/code-delivery.js";
import { sendSigningCode } from "../services/signing/send-signing-code.js";
import { signDocument } from "../services/signing/sign-document.js";
import { chooseByLink } from "../services/choices/choose-by-link.js";
import { optionalItemParam } from "../../shared/schemas/choices.js";
import { linkChoiceInputSchema } from "../../shared/schemas/choices.js";
import { signingCodeKey } from "../services/signing/signing-codes.js";
import { emailChannelOf } from "../services/signing/signing-settings.js";
import { verifySigningCode } from "../services/signing/verify-signing-code.js";
import { recordReading } from "../services/signing/record-reading.js";
import { READING_BODY_LIMIT, readingBatchSchema } from "../../shared/reading/reading-record.js";
import type { FileStorage } from "../storage/file-storage.js";
import { answerQuestion, pauseSigning } from "../services/signing/record-comprehension.js";
import { comprehensionAnswerInputSchema } from "../../shared/document-model/comprehension.js";
import { AUDIO_MAX_BYTES, AUDIO_MAX_MS, AUDIO_UPLOAD_TYPES } from "../../shared/audio/audio-consent.js";
import { uploadAudio } from "../services/signing/record-audio.js";

/** Any string: a malformed token is answered like an unknown one (410), never a 400 that tells them apart. */
const tokenParams = z.object({ token: text().max(200) });
const tags = ["assinatura pública"];
/** E-mail codes: a few per link per quarter hour (each one sends an e-mail). */
const CODE_LIMIT = { max: 5, timeWindow: 15 * 60_000 };
/**
 * Reading batches (decision 052) come every 15 s from each open page: they count on a bucket of
 * their own, so patients reading on one clinic Wi-Fi never use up the signatures' per-IP limit.
 */
const READING_ROUTE = "/api/public/sign/:token/reading";
/** A page sends 4 a minute; a fifth of the public limit leaves room (12 at the default 60). */
const readingLimit = (perMinute: number) => ({ max: Math.max(12, Math.floor(perMinute / 5)), timeWindow: 60_000 });
const CODE_ROUTE = "/api/public/sign/:token/code";

interface SigningPublicOptions {
  db: Db;
  env: Env;
  storage: FileStorage;
  secretBox: SecretBox;
}

/**
 * The patient's side (no account; the token in the link is the only key). Every answer says
 * Referrer-Policy: no-referrer and Cache-Control: no-store; every route is rate-limited per IP
 * and per token (RATE_LIMIT_PUBLIC_PER_MINUTE), the code route harder.
 */
export const signingPublicRoutes: FastifyPluginAsyncZod<SigningPublicOptions> = async (
  app,
  { db, env, storage, secretBox },
) => {
  const codeKey = signingCodeKey(secretBox);
  /**
   * Decision 071: the page says it was shown inside a site (signature, refusal, revocation); kept
   * only when it is one the clinic allows for this link's document, else null (a direct link).
   */
  const allowedEmbedding = async (token: string, claimed: { origem: string } | undefined): Promise<string | null> =>
    claimed && (await embedOriginsForToken(db, token)).includes(claimed.origem) ? claimed.origem : null;
  // onSend runs for every answer, errors and 429s included.
  app.addHook("onSend", async (_request, reply, payload) => {
    reply.header("referrer-policy", "no-referrer");
    reply.header("cache-control", "no-store");
    return payload;
  });
  const tokenOf = (request: FastifyRequest) => (request.params as { token?: string }).token ?? "";
  const perMinute = { max: env.RATE_LIMIT_PUBLIC_PER_MINUTE, timeWindow: 60_000 };
  // Counted in PostgreSQL across processes, all of a request's limits in one statement:
  // per address, per link, and on the code route per link for codes, in that order.
  const rule = (limit: { max: number; timeWindow: number }, key: string): RateLimitRule => ({
    namespace: rateLimitNamespace("", "", limit.max, limit.timeWindow),
    key,
    ...limit,
  });
  const codeRoute = (request: FastifyRequest) => request.method === "POST" && request.routeOptions.url === CODE_ROUTE;
  /**
   * The first limit exceeded answers 429 (RATE_LIMITED, pt-BR); the later ones are not counted.
   * Counted at preValidation, after the admission gate has let the request in (decision 040): a
   * request the gate turns away — on arrival or after its wait — counts against no limit, so a
   * page that waits and tries again is never locked out (the code route allows 5 per quarter hour).
   */
  app.addHook("preValidation", async (request: FastifyRequest, reply: FastifyReply) => {
    const rules =
      request.routeOptions.url === READING_ROUTE
        ? [rule(readingLimit(env.RATE_LIMIT_PUBLIC_PER_MINUTE), `sign-reading:${tokenOf(request)}`)]
        : [rule(perMinute, `sign-ip:${request.ip}`), rule(perMinute, `sign-token:${tokenOf(request)}`)];
    if (codeRoute(request)) rules.push(rule(CODE_LIMIT, `sign-code:${tokenOf(request)}`));
    const counts = await countRequest(db, rules);
    for (const [i, count] of counts.entries()) {
      if (count && count.current > rules[i]!.max) {
        reply.header("retry-after", String(Math.ceil(count.ttl / 1000)));
        throw new AppError("RATE_LIMITED");
      }
    }
  });
  const channel = emailChannelOf(env);
  const auditOf = (request: FastifyRequest) => ({
    ip: request.ip,
    userAgent: request.headers["user-agent"],
    // The signer's TCP source port: the socket's on a direct connection, the proxy's header behind one.
    port: clientPort(request, env.CLIENT_PORT_HEADER) ?? undefined,
  });

  app.get(
    "/api/public/sign/:token",
    {
      schema: {
        tags,
        summary: "O documento a assinar (ou já assinado) pelo link; 410 quando o link é inválido ou expirou",
        params: tokenParams,
        response: { 200: signingPageSchema },
      },
    },
    async (request) => openSigningPage({ db, storage, channel, token: request.params.token, audit: auditOf(request) }),
  );

  // The sealed PDF for the signer. Whoever holds the link can fetch it for as long as the
  // link opens the signed page — after signing that is until the link is revoked, not until a
  // deadline (see get-signer-signed-pdf.ts). Each GET is audited; HEAD (the page's polling) is not.
  app.get(
    "/api/public/sign/:token/signed-pdf",
    {
      // Fastify would answer HEAD with this handler (reading the bytes and auditing a download).
      exposeHeadRoute: false,
      schema: {
        tags,
        summary:
          "Baixa o PDF assinado e selado pelo link de assinatura (404 enquanto é preparado ou antes da assinatura; 410 quando o link é inválido)",
        params: tokenParams,
      },
    },
    async (request, reply) => {
      const pdf = await getSignerSignedPdf({
        db,
        storage,
        token: request.params.token,
        audit: {
          ip: request.ip,
          userAgent: request.headers["user-agent"],
        },
      });
      return reply
        .header("content-type", "application/pdf")
        .header("content-disposition", `attachment; filename="${pdf.nome}"`)
        .send(pdf.bytes);
    },
  );

  app.head(
    "/api/public/sign/:token/signed-pdf",
    {
      schema: {
        tags,
        summary:
          "O PDF assinado já está pronto? 200 quando sim, 404 enquanto é preparado, 410 quando o link é inválido (sem registrar download)",
        params: tokenParams,
      },
    },
    async (request, reply) => {
      await signerSignedPdfReady(db, request.params.token);
      return reply.header("content-type", "application/pdf").send();
    },
  );

  app.get(
    CODE_ROUTE,
    {
      schema: {
        tags,
        summary:
          "Por onde foi o último código deste link: e-mail, SMS ou WhatsApp (e se substituiu um WhatsApp não entregue)",
        params: tokenParams,
        response: {
          200: z.object({
            entrega: z
              .object({
                canal: z.enum(["email", "sms", "whatsapp"]),
                destino: text(),
                reenvio_whatsapp: z.boolean(),
              })
              .nullable(),
          }),
        },
      },
    },
    async (request) => ({ entrega: await codeDelivery(db, request.params.token) }),
  );

  app.post(
    CODE_ROUTE,
    {
      schema: {
        tags,
        summary:
          "Envia um código de 6 dígitos ao e-mail ou ao celular cadastrado do paciente (quando a clínica o exige)",
        params: tokenParams,
        body: sendCodeInputSchema,
        response: {
          200: z.object({
            enviado: z.literal(true),
            canal: z.enum(["email", "sms", "whatsapp"]),
            destino: text(),
            email: text().nullable(),
          }),
        },
      },
    },
    async (request) =>
      sendSigningCode({
        db,
        secretBox,
        channel,
        token: request.params.token,
        audit: auditOf(request),
        choice: { canal: request.body?.canal },
      }),
  );

  // The reading record (decision 052): small batches while the signer reads; bounded, never after signing.
  app.post(
    READING_ROUTE,
    {
      bodyLimit: READING_BODY_LIMIT,
      schema: {
        tags,
        summary:
          "Registra, em lotes, quanto tempo cada seção do documento ficou na tela do signatário (informado pelo aparelho, não conferido); 409 depois da assinatura",
        params: tokenParams,
        body: readingBatchSchema,
        response: { 200: z.object({ registrado: z.literal(true) }) },
      },
    },
    async (request) => recordReading({ db, token: request.params.token, batch: request.body, audit: auditOf(request) }),
  );

  // Comprehension questions (decision 061): each answer scored here; the page never has the right option.
  const comprehensionState = z.object({
    respostas: z.array(z.object({ pergunta_id: text(), verificada: z.boolean(), tentativas: z.number().int() })),
    pausada: z.boolean(),
    max_tentativas: z.number().int(),
  });
  app.post(
    "/api/public/sign/:token/comprehension",
    {
      bodyLimit: 4096,
      schema: {
        tags,
        summary:
          "Responde a uma pergunta de compreensão do documento; o servidor confere e guarda cada tentativa na trilha do documento",
        params: tokenParams,
        body: comprehensionAnswerInputSchema,
        response: {
          200: z.object({
            correta: z.boolean(),
            secao_id: text(),
            tentativas: z.number().int(),
            compreensao: comprehensionState,
          }),
        },
      },
    },
    async (request) =>
      answerQuestion({ db, token: request.params.token, input: request.body, audit: auditOf(request) }),
  );
  app.post(
    "/api/public/sign/:token/comprehension/pause",
    {
      bodyLimit: 4096,
      schema: {
        tags,
        summary:
          "“Quero falar com o profissional”: pausa a assinatura, avisa o profissional responsável e registra na trilha do documento",
        params: tokenParams,
        body: z
          .object({ pergunta_id: text().max(64).optional() })
          .strict()
          .optional(),
        response: { 200: z.object({ pausada: z.literal(true), em: text() }) },
      },
    },
    async (request) =>
      pauseSigning({
        db,
        token: request.params.token,
        input: { pergunta_id: request.body?.pergunta_id },
        audit: auditOf(request),
      }),
  );

  // Audio consent (decision 069): the recording as the raw body; what it is, the bytes say.
  await app.register(async (audioApp) => {
    audioApp.addContentTypeParser(
      [...AUDIO_UPLOAD_TYPES],
      // A little over the cap, so a file just over it gets the audio's own message from the check.
      { parseAs: "buffer", bodyLimit: AUDIO_MAX_BYTES + 64 * 1024 },
      (_request, body, done) => {
        done(null, body);
      },
    );
    audioApp.setErrorHandler((error, _request, _reply) => {
      const status = (error as { statusCode?: number }).statusCode;
      if (status === 413) throw new AppError("AUDIO_TOO_BIG");
      if (status === 415) throw new AppError("AUDIO_NOT_AUDIO");
      throw error;
    });
    audioApp.withTypeProvider<ZodTypeProvider>().post(
      "/api/public/sign/:token/audio",
      {
        bodyLimit: AUDIO_MAX_BYTES + 64 * 1024,
        schema: {
          tags,
          summary:
            "Envia a gravação em áudio da frase de aceite (quando a clínica a pede): o próprio arquivo como corpo (WebM, Ogg, MP4/M4A ou WAV, conferido pelos bytes), até 3 minutos e 3 MB; guardada cifrada, seu SHA-256 vai para as evidências da assinatura",
          params: tokenParams,
          querystring: z.object({
            duracao_ms: z.coerce
              .number({ error: "Duração inválida" })
              .int("Duração inválida")
              .min(0, "Duração inválida")
              .max(AUDIO_MAX_MS * 10, "A gravação passou de 3 minutos. Grave de novo, mais curta."),
          }),
          consumes: [...AUDIO_UPLOAD_TYPES],
          response: {
            200: z.object({
              gravado: z.literal(true),
              sha256: text(),
              duracao_ms: z.number().int(),
              envios: z.number().int(),
              max_envios: z.number().int(),
            }),
          },
        },
      },
      async (request) => {
        if (!Buffer.isBuffer(request.body)) throw new AppError("AUDIO_NOT_AUDIO");
        return uploadAudio({
          ctx: { db, storage, secretBox },
          token: request.params.token,
          input: { bytes: request.body, duracao_ms: request.query.duracao_ms },
          audit: auditOf(request),
        });
      },
    );
  });

  app.post(
    "/api/public/sign/:token/verify-code",
    {
      schema: {
        tags,
        summary:
          "Confere o código enviado ao e-mail cadastrado e devolve o documento completo (sem máscara); tentativas erradas contam e ficam na trilha",
        params: tokenParams,
        body: verifyCodeInputSchema,
        response: { 200: signingPageSchema },
      },
    },
    async (request) =>
      verifySigningCode({
        db,
        codeKey,
        storage,
        channel,
        token: request.params.token,
        code: request.body.codigo,
        audit: auditOf(request),
      }),
  );

  app.post(
    "/api/public/sign/:token",
    {
      schema: {
        tags,
        summary:
          "Assina: o servidor confere nome, CPF, assinatura desenhada, conteúdo e código; uma assinatura por documento",
        params: tokenParams,
        body: signInputSchema,
        response: { 200: z.object({ estado: z.literal("signed"), assinou_em: text() }) },
      },
    },
    async (request) => {
      // Front-desk signing: this device's staff session was locked for a document;
      // sign-document.ts records the signature as presencial when it is this link's document.
      const user = request.user;
      const frontDesk =
        user?.locked && user.lockedContratoId
          ? { tenantId: user.tenantId, contratoId: user.lockedContratoId, profileId: user.profileId, nome: user.nome }
          : null;
      return signDocument({
        db,
        codeKey,
        storage,
        channel,
        token: request.params.token,
        input: request.body,
        audit: {
          ...auditOf(request),
          frontDesk,
          embeddedIn: await allowedEmbedding(request.params.token, request.body.incorporado),
        },
      });
    },
  );
  // Decision 056: refuse before signing, or revoke the signed consent, with the signature's checks.
  const choiceResponse = z.object({
    estado: z.enum(["recusado", "revogado"]),
    em: text(),
    codigo_verificacao: text(),
  });
  app.post(
    "/api/public/sign/:token/refuse",
    {
      schema: {
        tags,
        summary:
          "Recusa informada: o servidor confere nome, CPF e código como na assinatura; o link deixa de aceitar assinatura",
        params: tokenParams,
        body: linkChoiceInputSchema,
        response: { 200: choiceResponse },
      },
    },
    async (request) =>
      chooseByLink({
        db,
        codeKey,
        channel,
        token: request.params.token,
        tipo: "recusa",
        input: request.body,
        audit: {
          ...auditOf(request),
          embeddedIn: await allowedEmbedding(request.params.token, request.body.incorporado),
        },
      }),
  );
  app.post(
    "/api/public/sign/:token/revoke",
    {
      schema: {
        tags,
        summary:
          "Revoga o consentimento assinado: as mesmas conferências da assinatura; o PDF assinado não muda, um Registro de revogação selado é gerado",
        params: tokenParams,
        body: linkChoiceInputSchema,
        response: { 200: choiceResponse },
      },
    },
    async (request) =>
      chooseByLink({
        db,
        codeKey,
        channel,
        token: request.params.token,
        tipo: "revogacao",
        input: request.body,
        audit: {
          ...auditOf(request),
          embeddedIn: await allowedEmbedding(request.params.token, request.body.incorporado),
        },
      }),
  );
  // Decision 057: one optional consent answered "Sim" is revoked on its own, with the same checks.
  app.post(
    "/api/public/sign/:token/optional-consents/:item/revoke",
    {
      schema: {
        tags,
        summary:
          "Revoga uma autorização opcional respondida com “Sim”: as mesmas conferências da assinatura; o consentimento principal e o PDF assinado não mudam, um Registro de revogação selado da autorização é gerado",
        params: tokenParams.extend({ item: optionalItemParam }),
        body: linkChoiceInputSchema,
        response: { 200: choiceResponse },
      },
    },
    async (request) =>
      chooseByLink({
        db,
        codeKey,
        channel,
        token: request.params.token,
        tipo: "revogacao",
        itemId: request.params.item,
        input: request.body,
        audit: {
          ...auditOf(request),
          embeddedIn: await allowedEmbedding(request.params.token, request.body.incorporado),
        },
      }),
  );
};
