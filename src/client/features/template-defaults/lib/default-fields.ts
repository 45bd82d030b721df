import { MAX_SECTION_CONTENT, type TEMPLATE_TAGS, type TemplateDefaults } from "@shared/schemas/template";

export type DefaultField = keyof TemplateDefaults;

export interface DefaultFieldInfo {
  name: DefaultField;
  label: string;
  /** The template tag this text fills, without braces (one of TEMPLATE_TAGS). */
  tag: (typeof TEMPLATE_TAGS)[number];
  /** What the tag does, for the tag list card. */
  tagDescription: string;
  multiline: boolean;
  placeholder: string;
  maxLength: number;
}

/** The four defaults of /profile/templates, in screen order (spec part 2 §2, §9). */
export const DEFAULT_FIELDS: readonly DefaultFieldInfo[] = [
  {
    name: "template_riscos",
    label: "Riscos padrão",
    tag: "riscos",
    tagDescription: "Lista de riscos e possíveis complicações do procedimento",
    multiline: true,
    placeholder: "Ex.: Hematoma e edema na região tratada\nInfecção no local da incisão\nCicatriz aparente",
    maxLength: MAX_SECTION_CONTENT,
  },
  {
    name: "template_beneficios",
    label: "Benefícios padrão",
    tag: "beneficios",
    tagDescription: "Lista de benefícios esperados com o procedimento",
    multiline: true,
    placeholder: "Ex.: Melhora funcional da região tratada\nRecuperação rápida",
    maxLength: MAX_SECTION_CONTENT,
  },
  {
    name: "template_cuidados_pos",
    label: "Cuidados pós-procedimento padrão",
    tag: "cuidados_pos",
    tagDescription: "Lista de cuidados e orientações após o procedimento",
    multiline: true,
    placeholder: "Ex.: Aplicar compressas frias nas primeiras 48 horas\nEvitar esforço físico por 15 dias",
    maxLength: MAX_SECTION_CONTENT,
  },
  {
    name: "template_valor_procedimento",
    label: "Valor do procedimento padrão",
    tag: "valor_procedimento",
    tagDescription: "Valor cobrado pelo procedimento",
    multiline: false,
    placeholder: "Ex.: R$ 1.500,00",
    maxLength: 200,
  },
];

export const tagText = (tag: string): string => `{{${tag}}}`;

/** Non-blank lines of a list text: what becomes one item of the document's list. */
export function countItems(text: string | null | undefined): number {
  return (text ?? "").split(/\r\n?|\n/).filter((line) => line.trim() !== "").length;
}
