/**
 * A realistic consent document for the PDF tests and the pdf-render benchmark: the sample TCLE
 * template filled the way document creation fills it (fillDocumentVariables), for a patient of a
 * São Paulo clinic, with the chosen risks, benefits and aftercare.
 */
import { createHash } from "node:crypto";
import { buildDocumentModel } from "../../../src/shared/document-model/build-document-model.js";
import { fillDocumentVariables } from "../../../src/shared/document-model/document-variables.js";
import { SAMPLE_TEMPLATE } from "../../../src/shared/document-model/sample-template.js";
import type { DocumentPdfInput } from "../../../src/pdf/document-pdf.js";

export const CREATED_AT = new Date("2025-03-07T17:04:09Z");
export const DOCUMENT_ID = "0f3c9a52-7d1e-4b8a-9c6f-2e5d8b1a4c7e";

const RISCOS = [
  ["Hematoma e equimose", "Manchas roxas no local das aplicações, que regridem espontaneamente em 7 a 14 dias."],
  ["Edema", "Inchaço transitório na região tratada, mais evidente nas primeiras 48 horas."],
  ["Assimetria", "Diferença de volume ou contorno entre os lados, que pode exigir retoque após 15 dias."],
  ["Nódulos", "Pequenas irregularidades palpáveis, em geral resolvidas com massagem orientada pelo profissional."],
  ["Infecção", "Rara; manifesta-se por vermelhidão, calor, dor e secreção, e exige tratamento com antibióticos."],
  ["Oclusão vascular", "Complicação rara e grave, com risco de necrose da pele ou alteração visual, que exige atendimento imediato."],
  ["Reação alérgica", "Reação ao produto ou ao anestésico, desde coceira local até quadros sistêmicos, muito raros."],
] as const;

const BENEFICIOS = [
  ["Restauração de volume", "Reposição do volume perdido com o envelhecimento, com aspecto natural."],
  ["Melhora do contorno", "Definição do contorno mandibular e do mento, com harmonização do perfil facial."],
  ["Hidratação da pele", "Melhora da textura e da hidratação cutânea pela ação do ácido hialurônico."],
  ["Procedimento minimamente invasivo", "Realizado em consultório, sem internação, com retorno rápido às atividades."],
] as const;

const CUIDADOS = [
  ["Gelo", "Aplicar compressas frias, protegidas por um pano limpo, por 10 minutos a cada hora nas primeiras 24 horas."],
  ["Exercícios físicos", "Evitar exercícios intensos, sauna e exposição ao calor por 48 horas."],
  ["Maquiagem", "Não aplicar maquiagem na região tratada nas primeiras 12 horas."],
  ["Massagem", "Não massagear nem pressionar a região, salvo orientação expressa do profissional."],
  ["Sinais de alerta", "Procurar a clínica imediatamente em caso de dor intensa, palidez ou arroxeamento da pele, ou alteração visual."],
  ["Retorno", "Comparecer à consulta de revisão agendada para 15 dias após o procedimento."],
] as const;

const selected = [
  ...RISCOS.map(([titulo, descricao]) => ({ tipo: "riscos" as const, titulo, descricao })),
  ...BENEFICIOS.map(([titulo, descricao]) => ({ tipo: "beneficios" as const, titulo, descricao })),
  ...CUIDADOS.map(([titulo, descricao]) => ({ tipo: "cuidados_pos" as const, titulo, descricao })),
];

export const CLINIC: DocumentPdfInput["clinic"] = {
  nome: "Clínica Dermatológica Pinheiros",
  razao_social: "Clínica Dermatológica Pinheiros Ltda.",
  cnpj: "11222333000181",
  cnes: "2077485",
  endereco: "Rua dos Pinheiros, 1234, sala 52 - Pinheiros, São Paulo - SP, 05422-001",
  telefone: "1130456789",
};

export const PHYSICIAN: NonNullable<DocumentPdfInput["physician"]> = {
  nome: "Dra. Márcia Conceição Araújo",
  conselho_tipo: "CRM",
  conselho_numero: "123456",
  conselho_uf: "SP",
  rqe: "45678",
  especialidade: "Dermatologia",
};

export function sampleValues(): Record<string, string> {
  return fillDocumentVariables({
    titulo: "Termo de Consentimento - Preenchimento com Ácido Hialurônico",
    procedimento: "Preenchimento facial com ácido hialurônico",
    data_procedimento: "2025-03-14",
    patient: {
      nome: "João Sebastião Gonçalves",
      cpf: "52998224725",
      data_nascimento: "1984-07-21",
      email: "joao.goncalves@example.com.br",
      telefone: "11987654321",
      responsavel_nome: null,
      responsavel_cpf: null,
    },
    physician: { ...PHYSICIAN, cpf: "11144477735" },
    clinic: {
      nome: CLINIC.nome,
      logradouro: "Rua dos Pinheiros",
      numero: "1234",
      complemento: "sala 52",
      bairro: "Pinheiros",
      cidade: "São Paulo",
      estado: "SP",
      cep: "05422001",
      telefone: CLINIC.telefone,
    },
    selected,
    custom: { valor_procedimento: "R$ 2.800,00 (dois mil e oitocentos reais)" },
    createdAt: CREATED_AT,
    expiresAt: new Date(CREATED_AT.getTime() + 7 * 24 * 3600 * 1000),
  });
}

/** The sample TCLE as a document (three A4 pages with this content). */
export function sampleDocumentInput(overrides: Partial<DocumentPdfInput> = {}): DocumentPdfInput {
  const model = buildDocumentModel(SAMPLE_TEMPLATE.estrutura, sampleValues());
  const hash = createHash("sha256").update(JSON.stringify(model)).digest("hex");
  return {
    model,
    documentId: DOCUMENT_ID,
    contentSha256: hash,
    createdAt: CREATED_AT,
    clinic: CLINIC,
    physician: PHYSICIAN,
    ...overrides,
  };
}
