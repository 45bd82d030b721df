import { z } from "zod";
import { text } from "./safe-input.js";

/** What the person types in the dialog to confirm an anonymization (it cannot be undone). */
export const ANONYMIZE_CONFIRMATION = "ANONIMIZAR";
const confirmationMessage = `Digite ${ANONYMIZE_CONFIRMATION} para confirmar: a anonimização não pode ser desfeita.`;

/** POST /api/patients/:id/anonymize: the dialog's explicit, typed confirmation. */
export const patientAnonymizeSchema = z.object({
  confirmacao: text({ error: confirmationMessage })
    .trim()
    .refine((value) => value.toUpperCase() === ANONYMIZE_CONFIRMATION, confirmationMessage),
});
export type PatientAnonymizeInput = z.infer<typeof patientAnonymizeSchema>;

/** GET /api/settings/export?arquivos=sim|nao: with the stored files (PDFs, signatures) or without. */
export const clinicExportQuerySchema = z.object({
  arquivos: z.enum(["sim", "nao"], { error: "Use arquivos=sim ou arquivos=nao." }).default("sim"),
});

export const DATA_RIGHTS_MESSAGES = {
  exportPatient: "Exportar dados do paciente",
  exportPatientHint:
    "Um ZIP com o cadastro, os documentos (PDFs assinados) e o registro de quem acessou os dados do paciente (LGPD, art. 18).",
  exportStarted: "Exportação iniciada: o ZIP está sendo baixado.",
  anonymize: "Anonimizar paciente",
  anonymizeTitle: "Anonimizar este paciente?",
  anonymizeConfirm: "Anonimizar definitivamente",
  anonymized: "Dados pessoais do paciente anonimizados",
  anonymizeError: "Não foi possível anonimizar o paciente",
  exportClinic: "Exportar todos os dados da clínica",
  exportClinicHint:
    "Um ZIP com todas as tabelas da clínica (JSON e planilhas CSV), os arquivos guardados (PDFs e assinaturas), a trilha de auditoria com a cadeia de hashes e um manifesto. Senhas, tokens e certificados nunca saem do servidor.",
  exportClinicOwnerOnly: "Apenas o proprietário da conta pode exportar todos os dados da clínica.",
} as const;
