import type { clinicLogos } from "../../../../db/schema.js";
import { type ClinicLogo, clinicLogoUrl } from "../../../../shared/clinic-logo.js";

type LogoRow = Pick<typeof clinicLogos.$inferSelect, "sha256" | "width" | "height" | "formato_original" | "updated_at">;

export function presentClinicLogo(row: LogoRow | undefined): ClinicLogo {
  if (!row) return { logo: null };
  return {
    logo: {
      url: clinicLogoUrl(row.sha256),
      sha256: row.sha256,
      width: row.width,
      height: row.height,
      formato_original: row.formato_original,
      atualizado_em: row.updated_at.toISOString(),
    },
  };
}
