import type { Resolver } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { type DocumentCreateData, documentCreateInputSchema } from "@shared/schemas/document";

export const KNOWN_FIELDS = [
  "paciente_id",
  "template_version_id",
  "titulo",
  "procedimento_id",
  "data_procedimento",
  "medico_responsavel_id",
  "variaveis",
  "conteudo",
] as const;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The form's own shape: every field a string (blank = not chosen), like the inputs hold them. */
export interface FormValues {
  paciente_id: string;
  template_version_id: string;
  titulo: string;
  procedimento_id: string;
  data_procedimento: string;
  medico_responsavel_id: string;
  variaveis: {
    valor_procedimento: string;
    riscos_personalizados: string;
    beneficios_personalizados: string;
    cuidados_personalizados: string;
  };
  conteudo: { riscos: string[]; beneficios: string[]; cuidados: string[] };
  permitir_pendencias: boolean;
}

/** The shared schema parses the form's values (blanks become "not given"). */
export const resolver = zodResolver(documentCreateInputSchema) as unknown as Resolver<
  FormValues,
  unknown,
  DocumentCreateData
>;

export type ContentKind = "riscos" | "beneficios" | "cuidados";
export type ContentCounts = Record<ContentKind, number>;
