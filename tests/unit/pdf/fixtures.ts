/**
 * A realistic consent document for the PDF tests and the pdf-render benchmark: the sample TCLE
 * template filled the way document creation fills it (fillDocumentVariables), for a patient of a
 * São Paulo clinic, with the chosen risks, benefits and aftercare.
 */
import { createHash } from "node:crypto";
import { buildDocumentModel } from "../../../src/shared/document-model/build-document-model.js";
import { fillDocumentVariables } from "../../../src/shared/document-model/document-variables.js";
import { SAMPLE_TEMPLATE } from "../../../src/shared/document-model/sample-template.js";
import type { DocumentPdfInput, PdfAttachment } from "../../../src/pdf/document-pdf.js";
import type { SignatureRegistry } from "../../../src/pdf/signature-registry.js";
import { evidenceAttachments, registryOf } from "../../../src/server/services/finalize/final-pdf-input.js";
import { auditEventLabel } from "../../../src/shared/audit/labels.js";
import { buildDocumentChain } from "../../../src/shared/evidence/document-chain.js";
import { buildEvidence, canonicalJson, type Evidence } from "../../../src/shared/evidence/evidence.js";

export const CREATED_AT = new Date("2025-03-07T17:04:09Z");
export const DOCUMENT_ID = "0f3c9a52-7d1e-4b8a-9c6f-2e5d8b1a4c7e";

const RISCOS = [
  ["Hematoma e equimose", "Manchas roxas no local das aplicações, que regridem espontaneamente em 7 a 14 dias."],
  ["Edema", "Inchaço transitório na região tratada, mais evidente nas primeiras 48 horas."],
  ["Assimetria", "Diferença de volume ou contorno entre os lados, que pode exigir retoque após 15 dias."],
  ["Nódulos", "Pequenas irregularidades palpáveis, em geral resolvidas com massagem orientada pelo profissional."],
  ["Infecção", "Rara; manifesta-se por vermelhidão, calor, dor e secreção, e exige tratamento com antibióticos."],
  [
    "Oclusão vascular",
    "Complicação rara e grave, com risco de necrose da pele ou alteração visual, que exige atendimento imediato.",
  ],
  ["Reação alérgica", "Reação ao produto ou ao anestésico, desde coceira local até quadros sistêmicos, muito raros."],
] as const;

const BENEFICIOS = [
  ["Restauração de volume", "Reposição do volume perdido com o envelhecimento, com aspecto natural."],
  ["Melhora do contorno", "Definição do contorno mandibular e do mento, com harmonização do perfil facial."],
  ["Hidratação da pele", "Melhora da textura e da hidratação cutânea pela ação do ácido hialurônico."],
  ["Procedimento minimamente invasivo", "Realizado em consultório, sem internação, com retorno rápido às atividades."],
] as const;

const CUIDADOS = [
  [
    "Gelo",
    "Aplicar compressas frias, protegidas por um pano limpo, por 10 minutos a cada hora nas primeiras 24 horas.",
  ],
  ["Exercícios físicos", "Evitar exercícios intensos, sauna e exposição ao calor por 48 horas."],
  ["Maquiagem", "Não aplicar maquiagem na região tratada nas primeiras 12 horas."],
  ["Massagem", "Não massagear nem pressionar a região, salvo orientação expressa do profissional."],
  [
    "Sinais de alerta",
    "Procurar a clínica imediatamente em caso de dor intensa, palidez ou arroxeamento da pele, ou alteração visual.",
  ],
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

export const SAMPLE_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
export const SAMPLE_SIGNED_AT = new Date("2025-03-08T13:20:41Z");

/**
 * The sample's evidence as the finalize job builds it: a 'avançada' signer, six events (one link
 * view by staff, one contact change) chained, the two JSON attachments, and the registry.
 */
export function sampleEvidence(
  input: DocumentPdfInput,
  link: { verificationCode: string; verificationUrl: string; qrPngDataUrl: string },
  seal: { commonName: string; fingerprintSha256: string },
): { registry: SignatureRegistry; attachments: PdfAttachment[]; evidence: Evidence } {
  const at = (minutes: number) => new Date(SAMPLE_SIGNED_AT.getTime() - minutes * 60_000).toISOString();
  const staff = {
    actor: "Dra. Beatriz Andrade",
    ip: "10.0.0.5",
    user_agent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/126.0",
  };
  const patient = { actor: null, ip: "203.0.113.7", user_agent: SAMPLE_UA };
  const event = (minutes: number, action: string, who: typeof staff | typeof patient, data: unknown) => ({
    action,
    label: auditEventLabel(action, data),
    created_at: at(minutes),
    ...who,
    data,
    cadeia_clinica: null,
  });
  const consent = { versao: "2026-11-v1", sha256: createHash("sha256").update("termo").digest("hex") };
  const signatureSha = createHash("sha256").update("assinatura").digest("hex");
  const eventos = buildDocumentChain([
    event(1500, "document.created", staff, {}),
    event(1400, "document.sent", staff, { canal: "email" }),
    event(1390, "document.link_accessed", staff, { via: "copiar" }),
    event(600, "patient.contact_changed", staff, {
      email: { antes: "j***@example.com.br", depois: "j***@example.com.br" },
    }),
    event(14, "document.otp_sent", patient, { email: "j***@example.com.br" }),
    event(12, "document.otp_verified", patient, {}),
    event(1, "document.party_signed", patient, {
      parte_id: "p1",
      nome_digitado: "joao sebastiao goncalves",
      nivel: "avancada",
      consentimento: consent,
    }),
    event(0, "document.signed", patient, { verification_code: link.verificationCode, partes: ["paciente"] }),
  ]);
  const evidence = buildEvidence({
    documento: {
      id: input.documentId,
      id_curto: `#${input.documentId.slice(-8)}`,
      titulo: input.model.title,
      clinica: input.clinic.nome,
      criado_em: input.createdAt.toISOString(),
      conteudo_sha256: input.contentSha256,
      codigo_verificacao: link.verificationCode,
      arquivo_conteudo: "documento.json",
    },
    partes: [
      {
        id: "p1",
        papel: "paciente",
        qualidade: null,
        nome: "João Sebastião Gonçalves",
        nome_digitado: "joao sebastiao goncalves",
        cpf: "52998224725",
        email: "joao.goncalves@example.com.br",
        telefone: "11987654321",
        assinou_em: SAMPLE_SIGNED_AT.toISOString(),
        metodo_assinatura: "eletronica",
        nivel: "avancada",
        motivo_simples: null,
        otp_verificado: true,
        codigo_enviado_para: "j***@example.com.br",
        codigo_canal: "email",
        tipo_assinatura: "desenhada",
        dispositivo: "Safari 17.4 · iOS 17.4 · iPhone (celular)",
        ip: "203.0.113.7",
        porta_origem: 53122,
        user_agent: SAMPLE_UA,
        consentimento: consent,
        conteudo_sha256: input.contentSha256,
        assinatura_sha256: signatureSha,
      },
    ],
    eventos,
    pdf_sem_assinaturas_sha256: createHash("sha256").update("rascunho").digest("hex"),
  });
  return {
    evidence,
    registry: registryOf(evidence, seal, link),
    attachments: evidenceAttachments(evidence, canonicalJson(input.model)),
  };
}

/** A section written with the formatting of decision 034: bold, italic, both, and both lists. */
export const FORMATTED_SECTION = {
  id: "sec-formatado",
  type: "paragraph" as const,
  title: "Orientações importantes",
  content: [
    "Eu, **{{paciente_nome}}**, declaro que li *com atenção* as orientações abaixo e que ***não*** omiti informação relevante.",
    "Antes do procedimento:",
    "- Jejum de **8 horas**;",
    "- Suspender *anticoagulantes* conforme orientação;",
    "",
    "Depois do procedimento:",
    "1. Repouso relativo por **48 horas**;",
    "2. Retorno em *7 dias* para revisão.",
    "",
    "Texto com marcas soltas: 2 * 3 e **sem fecho.",
  ].join("\n"),
};

/** The sample TCLE with FORMATTED_SECTION after its identification section. */
export function formattedDocumentInput(overrides: Partial<DocumentPdfInput> = {}): DocumentPdfInput {
  const [first, ...rest] = SAMPLE_TEMPLATE.estrutura.sections;
  const estrutura = { ...SAMPLE_TEMPLATE.estrutura, sections: [first!, FORMATTED_SECTION, ...rest] };
  const model = buildDocumentModel(estrutura, sampleValues());
  return { ...sampleDocumentInput(overrides), model, ...overrides };
}
