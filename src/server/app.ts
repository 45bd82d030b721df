import path from "node:path";
import fastifyCookie from "@fastify/cookie";
import fastifyHelmet from "@fastify/helmet";
import fastifyRateLimit from "@fastify/rate-limit";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyInstance } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { Database } from "../db/client.js";
import { projectRoot } from "../db/paths.js";
import type { Env } from "./env.js";
import { registerErrorHandling } from "./errors.js";
import { postgresRateLimitStore } from "./plugins/rate-limit-store.js";
import { openapiOptions } from "./openapi.js";
import { authPlugin } from "./plugins/auth.js";
import { apiCompressionPlugin } from "./plugins/api-compression.js";
import { clientAppPlugin } from "./plugins/client-app.js";
import { originCheckPlugin } from "./plugins/origin-check.js";
import { publicAdmissionPlugin } from "./plugins/public-admission.js";
import { apiKeyRoutes } from "./routes/api-keys.js";
import { webhookRoutes } from "./routes/webhooks.js";
import { embeddingRoutes } from "./routes/embedding.js";
import { embedOriginsForToken } from "./services/embedding/embed-settings.js";
import { auditRoutes } from "./routes/audit.js";
import { authRoutes } from "./routes/auth.js";
import { cepRoutes } from "./routes/cep.js";
import { certificateRoutes } from "./routes/certificates.js";
import { contentRoutes } from "./routes/content.js";
import { devOutboxRoutes } from "./routes/dev-outbox.js";
import { healthRoutes } from "./routes/health.js";
import { patientRoutes } from "./routes/patients.js";
import { documentChoiceRoutes } from "./routes/document-choices.js";
import { documentRoutes } from "./routes/documents.js";
import { feegowRoutes } from "./routes/feegow.js";
import { fhirRoutes } from "./routes/fhir.js";
import { feegowUploadRoutes } from "./routes/feegow-uploads.js";
import { noticeRoutes } from "./routes/notices.js";
import { signedPdfRoutes } from "./routes/signed-pdf.js";
import { verificationRoutes } from "./routes/verification.js";
import { signingPublicRoutes } from "./routes/signing-public.js";
import { signingStaffRoutes } from "./routes/signing-staff.js";
import { bulkSendRoutes } from "./routes/bulk-send.js";
import { procedureRoutes } from "./routes/procedures.js";
import { profileRoutes } from "./routes/profile.js";
import { settingsRoutes } from "./routes/settings.js";
import { reminderRoutes } from "./routes/reminders.js";
import { clinicLogoRoutes } from "./routes/clinic-logo.js";
import { templateDefaultsRoutes } from "./routes/template-defaults.js";
import { templateRoutes } from "./routes/templates.js";
import { userRoutes } from "./routes/users.js";
import { eventRoutes } from "./routes/events.js";
import { DEFAULT_LIVE_LIMITS, type LiveLimits } from "./live/live-hub.js";
import { createLiveUpdates, type LiveUpdates } from "./live/live-updates.js";
import { brasilApi, type CepSource, viaCep } from "./services/cep/cep-clients.js";
import { jobHandlers } from "./jobs/handlers.js";
import { witnessRoutes } from "./routes/witnesses.js";
import { dataRightsRoutes } from "./routes/data-rights.js";
import { createWorker, smtpTransport, type Worker } from "./jobs/worker.js";
import { createPdfPool, type PdfPool, type PdfPoolOptions } from "./pdf-pool/pdf-pool.js";
import { officialRootsFromEnv } from "./services/certificates/official-roots.js";
import { crlSourceFromEnv, ocspSourceFromEnv } from "./services/certificates/revocation/revocation-checker.js";
import { createSecretBox, loadInstanceKey, type SecretBox } from "./lib/secret-box.js";
import { siteOrigin } from "./lib/origin.js";
import { clientErrorHandler } from "./plugins/client-errors.js";
import { frameworkErrors, rejectUnsafeText, requireUtf8Json } from "./plugins/safe-input.js";
import { AUDIT_ANCHOR_KEY_PURPOSE } from "./services/audit/audit-anchors.js";
import "../shared/schemas/zod-locale.js";
import type { FileStorage } from "./storage/file-storage.js";
import { createFileStorage } from "./storage/storage-from-env.js";

export interface AppConfig {
  env: Env;
  database: Database;
  /** Folder with the built client (default dist/client). */
  clientDir?: string;
  /** Postal-code sources, in order (default ViaCEP then BrasilAPI at the env URLs). */
  cepSources?: CepSource[];
  /** Where file bytes go (default: DATA_DIR/files, or the bucket S3_BUCKET names; content-addressed). */
  storage?: FileStorage;
  /** Secrets at rest (default: key from APP_SECRET or DATA_DIR/secret.key). */
  secretBox?: SecretBox;
  /** Pino logger options, or false (tests). Default: JSON logs at env.LOG_LEVEL. */
  logger?: boolean | { level: string };
  /** PDF worker pool size and queue (default: one thread per core, 4 waiting per thread). */
  pdfPool?: PdfPoolOptions;
  /** Live-update streams: limits, heartbeat and retry (decision 022; tests shorten them). */
  live?: Partial<LiveLimits>;
}

export async function buildApp(config: AppConfig): Promise<FastifyInstance> {
  const { env, database } = config;
  // A root file that is named but unreadable stops the start, not a signature later (decision 041).
  const officialRoots = officialRootsFromEnv(env);
  const app = Fastify({
    logger: config.logger ?? { level: env.LOG_LEVEL },
    trustProxy: env.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  rejectUnsafeText(app);
  requireUtf8Json(app);

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        // The recorded agreement played back on the phone and on the staff page (decision 069).
        mediaSrc: ["'self'", "blob:"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", "data:"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: env.NODE_ENV === "production" ? [] : null,
      },
    },
    strictTransportSecurity: env.NODE_ENV === "production",
    crossOriginEmbedderPolicy: false,
  });
  await app.register(fastifyCookie);
  // Counted in the database, so a limit holds across every web process.
  await app.register(fastifyRateLimit, { global: false, store: postgresRateLimitStore(database.db) });
  await app.register(originCheckPlugin, { publicUrl: env.PUBLIC_URL });
  // Before any public route's own hooks: a burst is answered "busy, try again" (decision 040).
  await app.register(publicAdmissionPlugin, {
    limits: {
      maxInFlight: env.PUBLIC_MAX_IN_FLIGHT,
      maxWaiting: env.PUBLIC_MAX_WAITING,
      maxWaitMs: env.PUBLIC_MAX_WAIT_MS,
    },
  });
  await app.register(authPlugin, {
    db: database.db,
    secureCookies: env.NODE_ENV === "production",
    sessionDays: env.SESSION_DAYS,
    sessionIdleHours: env.SESSION_IDLE_HOURS,
    apiKeyPerMinute: env.RATE_LIMIT_API_KEY_PER_MINUTE,
  });
  // API answers carry personal data (patients, documents, the signed-in user): no browser or
  // proxy keeps a copy. A route may set its own Cache-Control; only the CEP lookup (public
  // postal data) does so with `public` (decision 011).
  app.addHook("onSend", async (request, reply) => {
    if (request.url.startsWith("/api/") && !reply.hasHeader("cache-control")) reply.header("cache-control", "no-store");
  });
  // Large JSON answers leave brotli- or gzip-compressed (decision 033).
  await app.register(apiCompressionPlugin);

  await app.register(fastifySwagger, openapiOptions(siteOrigin(env)));
  // The document is always built (tests enumerate routes through app.swagger()); its pages
  // (/api/docs, /api/docs/json) are served outside production, or with API_DOCS=true.
  if (env.API_DOCS ?? env.NODE_ENV !== "production") {
    await app.register(fastifySwaggerUi, { routePrefix: "/api/docs", staticCSP: true });
  }

  const cepSources = config.cepSources ?? [
    viaCep(env.VIACEP_URL, env.CEP_TIMEOUT_MS),
    brasilApi(env.BRASILAPI_URL, env.CEP_TIMEOUT_MS),
  ];

  await app.register(healthRoutes, { database });
  await app.register(authRoutes, {
    db: database.db,
    env,
    authRateLimit: { max: env.RATE_LIMIT_AUTH_PER_MINUTE, timeWindow: "1 minute" },
  });
  await app.register(userRoutes, {
    db: database.db,
    env,
    authRateLimit: { max: env.RATE_LIMIT_AUTH_PER_MINUTE, timeWindow: "1 minute" },
  });
  await app.register(cepRoutes, { db: database.db, sources: cepSources });
  await app.register(patientRoutes, { db: database.db });
  await app.register(procedureRoutes, { db: database.db });
  await app.register(templateRoutes, { db: database.db });
  await app.register(templateDefaultsRoutes, { db: database.db });
  await app.register(profileRoutes, { db: database.db });
  await app.register(settingsRoutes, { db: database.db });
  await app.register(apiKeyRoutes, { db: database.db });
  await app.register(clinicLogoRoutes, { db: database.db });
  await app.register(contentRoutes, { db: database.db });
  // DATA_DIR/files, or the S3-compatible bucket when S3_BUCKET is set (decision 030).
  let storage: FileStorage;
  if (config.storage) storage = config.storage;
  else {
    const own = await createFileStorage(env);
    app.addHook("onClose", async () => own.close?.());
    storage = own;
  }
  const secretBox = config.secretBox ?? createSecretBox(loadInstanceKey(env));
  app.decorate("services", { storage, secretBox });
  // PDF rendering and sealing run off the event loop (decision 012). Closed before the worker
  // stops, so a job waiting for room goes back to its queue instead of holding the shutdown.
  const pdfPool = createPdfPool(config.pdfPool);
  app.decorate("pdfPool", pdfPool);
  app.addHook("onClose", async () => pdfPool.close());
  // The background worker (jobs, e-mail, expiry sweep): started when the app is ready if
  // env.WORKER; tests run its rounds by hand with app.worker.tick().
  const worker = createWorker(
    { db: database.db, storage, secretBox, env, origin: siteOrigin(env), log: app.log, pdf: pdfPool, database },
    jobHandlers,
    smtpTransport(env.SMTP_URL),
  );
  app.decorate("worker", worker);
  if (env.WORKER) app.addHook("onReady", async () => worker.start());
  app.addHook("onClose", async () => worker.stop());
  await app.register(documentRoutes, { db: database.db, storage, pdf: pdfPool });
  await app.register(documentChoiceRoutes, { db: database.db });
  await app.register(signedPdfRoutes, { db: database.db, storage: app.services.storage });
  await app.register(fhirRoutes, { db: database.db, storage, origin: siteOrigin(env) });
  await app.register(dataRightsRoutes, { db: database.db, storage, secretBox });
  await app.register(verificationRoutes, {
    db: database.db,
    rateLimitPerMinute: env.RATE_LIMIT_PUBLIC_PER_MINUTE,
    pdf: pdfPool,
  });
  await app.register(signingStaffRoutes, { db: database.db, env, storage, secretBox });
  await app.register(bulkSendRoutes, { db: database.db, env, secretBox });
  await app.register(signingPublicRoutes, { db: database.db, env, storage, secretBox });
  await app.register(witnessRoutes, { db: database.db, env, secretBox });
  await app.register(reminderRoutes, { db: database.db, env });
  await app.register(webhookRoutes, { db: database.db, env, secretBox });
  await app.register(embeddingRoutes, { db: database.db, env });
  await app.register(feegowRoutes, { db: database.db, env, secretBox });
  await app.register(certificateRoutes, {
    db: database.db,
    secretBox,
    checks: { roots: officialRoots, crl: crlSourceFromEnv(env), ocsp: ocspSourceFromEnv(env) },
  });
  await app.register(feegowUploadRoutes, { db: database.db, storage, pdf: pdfPool });
  await app.register(noticeRoutes, { db: database.db });
  await app.register(auditRoutes, { db: database.db, anchorKey: secretBox.deriveKey(AUDIT_ANCHOR_KEY_PURPOSE) });
  if (env.NODE_ENV !== "production") await app.register(devOutboxRoutes, { db: database.db, secretBox });
  // Live updates (decision 022): open streams end before the server waits for its connections
  // (preClose), the LISTEN stops before the database closes (onClose).
  const live = createLiveUpdates(database, {
    idleHours: env.SESSION_IDLE_HOURS,
    limits: { ...DEFAULT_LIVE_LIMITS, ...config.live },
    log: app.log,
  });
  app.decorate("live", live);
  app.addHook("preClose", async () => live.endStreams());
  app.addHook("onClose", async () => live.close());
  await app.register(eventRoutes, { live });

  await app.register(clientAppPlugin, {
    clientDir: config.clientDir ?? path.join(projectRoot, "dist", "client"),
    serveSourceMaps: env.NODE_ENV !== "production",
    embedOriginsFor: (token) => embedOriginsForToken(database.db, token),
  });

  return app;
}

declare module "fastify" {
  interface FastifyInstance {
    /** Shared services built once per app: file storage and the instance secret box. */
    services: { storage: FileStorage; secretBox: SecretBox };
    /** The background worker of this app (decision 007). */
    worker: Worker;
    /** Worker threads that draw and seal PDFs (decision 012). */
    pdfPool: PdfPool;
    /** This process's live-update streams and its LISTEN (decision 022). */
    live: LiveUpdates;
  }
}
