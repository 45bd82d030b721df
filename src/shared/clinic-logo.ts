import { z } from "zod";
import { text } from "./schemas/safe-input.js";

/**
 * The clinic's logo: PNG, JPEG or SVG up to 1 MB, drawn on the PDF header and on the
 * signing page. The server keeps only its own re-encoding (a PNG on white, at most
 * LOGO_MAX_WIDTH × LOGO_MAX_HEIGHT pixels), so what it serves is never the uploaded file.
 */
export const LOGO_MAX_BYTES = 1024 * 1024;
export const LOGO_MAX_WIDTH = 600;
export const LOGO_MAX_HEIGHT = 240;
export const LOGO_ACCEPTED_TYPES = ["image/png", "image/jpeg", "image/svg+xml"] as const;
/** The file chooser's filter. */
export const LOGO_ACCEPT = ".png,.jpg,.jpeg,.svg,image/png,image/jpeg,image/svg+xml";

export const LOGO_MESSAGES = {
  saved: "Logo atualizado",
  removed: "Logo removido",
  tooLarge: "O logo deve ter no máximo 1 MB.",
  unsupported: "Envie o logo em PNG, JPEG ou SVG.",
  saveError: (reason: string) => `Erro ao salvar o logo: ${reason}`,
  removeError: (reason: string) => `Erro ao remover o logo: ${reason}`,
} as const;

/** The public address of a stored logo: content-addressed, so it can be cached for ever. */
export function clinicLogoUrl(sha256: string): string {
  return `/api/public/clinic-logos/${sha256}.png`;
}

export const clinicLogoSchema = z.object({
  logo: z
    .object({
      url: text(),
      sha256: text(),
      width: z.number().int(),
      height: z.number().int(),
      formato_original: text(),
      atualizado_em: text(),
    })
    .nullable(),
});
export type ClinicLogo = z.infer<typeof clinicLogoSchema>;

/** What the file chooser can say before uploading (the server checks again, for real). */
export function logoFileProblem(file: { size: number; type: string; name: string }): string | null {
  if (file.size > LOGO_MAX_BYTES) return LOGO_MESSAGES.tooLarge;
  const byType = (LOGO_ACCEPTED_TYPES as readonly string[]).includes(file.type);
  const byName = /\.(png|jpe?g|svg)$/i.test(file.name);
  return byType || (!file.type && byName) ? null : LOGO_MESSAGES.unsupported;
}
