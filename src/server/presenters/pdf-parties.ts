import type { profiles, tenants } from "../../db/schema.js";
import { formatAddress } from "../../shared/document-model/document-variables.js";
import type { DocumentPdfClinic, DocumentPdfPhysician } from "../../pdf/document-pdf.js";
import { physicianCredentials } from "./physician.js";

type TenantRow = typeof tenants.$inferSelect;
type ProfileRow = typeof profiles.$inferSelect;

/** The name a clinic goes by on documents, e-mails and public pages. */
export function clinicDisplayName(clinic: Pick<TenantRow, "nome" | "nome_fantasia" | "razao_social">): string {
  return clinic.nome_fantasia ?? clinic.razao_social ?? clinic.nome;
}

/** The clinic as the PDF header draws it. */
export function pdfClinic(clinic: TenantRow): DocumentPdfClinic {
  return {
    nome: clinicDisplayName(clinic),
    razao_social: clinic.razao_social,
    cnpj: clinic.cnpj,
    cnes: clinic.cnes,
    endereco: formatAddress({ ...clinic }) || null,
    telefone: clinic.telefone,
  };
}

/** The responsible physician as the PDF identifies them (CFM Res. 2.299/2021 art. 2). */
export function pdfPhysician(physician: ProfileRow | undefined | null): DocumentPdfPhysician | null {
  return physician ? { ...physician, ...physicianCredentials(physician) } : null;
}
