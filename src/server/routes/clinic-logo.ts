import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Db } from "../../db/client.js";
import { LOGO_ACCEPTED_TYPES, LOGO_MAX_BYTES, clinicLogoSchema } from "../../shared/clinic-logo.js";
import { AppError } from "../errors.js";
import { currentUser, requireUser } from "../plugins/auth.js";
import { getClinicLogo } from "../services/settings/logo/get-clinic-logo.js";
import { loadClinicLogoBySha256 } from "../services/settings/logo/load-clinic-logo.js";
import { removeClinicLogo } from "../services/settings/logo/remove-clinic-logo.js";
import { saveClinicLogo } from "../services/settings/logo/save-clinic-logo.js";

const tags = ["configurações"];
const logoFileParams = z.object({ file: z.string().regex(/^[0-9a-f]{64}\.png$/, "Logo não encontrado") });

/**
 * The clinic's logo: uploaded as the raw file (Content-Type image/png, image/jpeg or
 * image/svg+xml, at most 1 MB), kept only as the server's PNG re-encoding, served publicly by its
 * SHA-256 (the signing page has no session; the hash is unguessable and the content immutable).
 */
export const clinicLogoRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.addContentTypeParser(
    [...LOGO_ACCEPTED_TYPES, "application/octet-stream"],
    { parseAs: "buffer", bodyLimit: LOGO_MAX_BYTES },
    (_request, body, done) => {
      done(null, body);
    },
  );
  // A file over the limit is the logo's own message, not the generic "conteúdo grande demais".
  app.setErrorHandler((error, _request, _reply) => {
    if ((error as { statusCode?: number }).statusCode === 413) throw new AppError("LOGO_TOO_LARGE");
    if ((error as { statusCode?: number }).statusCode === 415) throw new AppError("LOGO_UNSUPPORTED");
    throw error;
  });

  app.get(
    "/api/settings/clinic/logo",
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "O logo da clínica (endereço, tamanho), ou null (proprietário ou administrador)",
        response: { 200: clinicLogoSchema },
      },
    },
    async (request) => getClinicLogo(db, currentUser(request)),
  );

  app.put(
    "/api/settings/clinic/logo",
    {
      preHandler: requireUser,
      bodyLimit: LOGO_MAX_BYTES,
      schema: {
        tags,
        summary:
          "Envia o logo da clínica: o arquivo PNG, JPEG ou SVG (até 1 MB) como corpo; guardado como PNG refeito pelo servidor",
        consumes: [...LOGO_ACCEPTED_TYPES],
        response: { 200: clinicLogoSchema },
      },
    },
    async (request) => {
      if (!Buffer.isBuffer(request.body)) throw new AppError("LOGO_UNSUPPORTED");
      return saveClinicLogo({
        db,
        actor: currentUser(request),
        bytes: request.body,
        audit: {
          ip: request.ip,
          userAgent: request.headers["user-agent"],
        },
      });
    },
  );

  app.delete(
    "/api/settings/clinic/logo",
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "Remove o logo da clínica (proprietário ou administrador)",
        response: { 200: clinicLogoSchema },
      },
    },
    async (request) =>
      removeClinicLogo(db, currentUser(request), { ip: request.ip, userAgent: request.headers["user-agent"] }),
  );

  app.get(
    "/api/public/clinic-logos/:file",
    {
      schema: {
        tags: ["assinatura pública"],
        summary: "Um logo de clínica pelo SHA-256 do PNG (imutável)",
        params: logoFileParams,
      },
    },
    async (request, reply) => {
      const png = await loadClinicLogoBySha256(db, request.params.file.slice(0, 64));
      if (!png) throw new AppError("NOT_FOUND");
      return reply
        .header("content-type", "image/png")
        .header("cache-control", "public, max-age=31536000, immutable")
        .header("x-content-type-options", "nosniff")
        .header("content-security-policy", "default-src 'none'")
        .send(png);
    },
  );
};
