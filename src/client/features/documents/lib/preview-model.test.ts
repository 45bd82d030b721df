import { describe, expect, it } from "vitest";
import { inlinesToText } from "@shared/document-model/build-document-model";
import { buildPreviewModel, previewPhysician, selectedContent, suggestedTitle } from "./preview-model";

const clinic = {
  nome: "Clínica Sorriso",
  logradouro: null,
  numero: null,
  complemento: null,
  bairro: null,
  cidade: "Niterói",
  estado: "RJ",
  cep: null,
  telefone: null,
};
const estrutura = {
  title: "Termo — {{procedimento}}",
  introduction: "Eu, {{paciente_nome}}, autorizo {{profissional_nome}} ({{crm}}).",
  sections: [{ id: "s1", type: "bullet_list", title: "Riscos", content: "{{riscos}}" }],
};
const me = {
  id: "me",
  nome: "Dra. Ana",
  cpf: "52998224725",
  rqe: null,
  conselho_tipo: "CRO",
  conselho_numero: "123",
  conselho_uf: "RJ",
};
const NO_DEFAULTS = {
  valor_procedimento: null,
  riscos_personalizados: null,
  beneficios_personalizados: null,
  cuidados_personalizados: null,
};
const physicians = [
  {
    id: "me",
    nome: "Dra. Ana",
    cpf: "52998224725",
    conselho_tipo: "CRO",
    conselho_numero: "123",
    conselho_uf: "RJ",
    rqe: null,
    especialidade: "Implantodontia",
    defaults: NO_DEFAULTS,
  },
];

describe("live preview model", () => {
  it("fills patient, physician, procedure and the chosen items like the server", () => {
    const selected = selectedContent(
      { riscos: ["r1", "missing"], beneficios: [], cuidados: ["c1"] },
      {
        riscos: [{ id: "r1", titulo: "Edema", descricao: "Inchaço." }],
        cuidados: [{ id: "c1", titulo: "Repouso", descricao: "Repouso" }],
      },
    );
    expect(selected).toEqual([
      { tipo: "riscos", titulo: "Edema", descricao: "Inchaço." },
      { tipo: "cuidados_pos", titulo: "Repouso", descricao: "Repouso" },
    ]);
    const model = buildPreviewModel({
      template: { titulo: "T", estrutura },
      titulo: "Termo",
      procedimento: "Implante",
      data_procedimento: null,
      patient: {
        nome: "Joana",
        cpf: null,
        data_nascimento: null,
        email: null,
        telefone: null,
        responsavel_nome: null,
        responsavel_cpf: null,
      },
      physician: previewPhysician({ physicians, must_choose_physician: true }, "me", me),
      clinic,
      selected,
      custom: { riscos_personalizados: "Dor leve" },
      now: new Date("2026-03-10T12:00:00Z"),
    });
    expect(model.title).toBe("Termo — Implante");
    expect(inlinesToText(model.introduction)).toBe("Eu, Joana, autorizo Dra. Ana (CRO-RJ 123).");
    expect(model.sections[0]!.items!.map(inlinesToText)).toEqual(["Edema: Inchaço.", "Dor leve"]);
    expect(model.unresolved).toEqual([]);
  });

  it("reports what it cannot fill: no patient yet, no physician chosen", () => {
    const model = buildPreviewModel({
      template: { titulo: "T", estrutura },
      titulo: "",
      procedimento: null,
      data_procedimento: null,
      patient: null,
      physician: previewPhysician({ physicians, must_choose_physician: true }, undefined, me),
      clinic,
      selected: [],
      custom: {},
      now: new Date(),
    });
    expect(model.unresolved).toEqual(["procedimento", "paciente_nome", "profissional_nome", "crm", "riscos"]);
  });

  it("uses the signed-in user when they do not choose, and suggests the title", () => {
    expect(previewPhysician({ physicians, must_choose_physician: false }, "other", me)).toMatchObject({
      nome: "Dra. Ana",
      cpf: "52998224725",
      especialidade: "Implantodontia",
    });
    expect(previewPhysician({ physicians, must_choose_physician: true }, "unknown", me)).toBeNull();
    expect(suggestedTitle("Rinoplastia")).toBe("Termo de Consentimento - Rinoplastia");
  });

  it("takes another chosen physician's CPF and RQE from the list, as the server will", () => {
    const colleague = {
      id: "dr",
      nome: "Dr. Paulo",
      cpf: "11144477735",
      conselho_tipo: "CRM",
      conselho_numero: "9",
      conselho_uf: "SP",
      rqe: "777",
      especialidade: "Dermatologia",
      defaults: NO_DEFAULTS,
    };
    expect(
      previewPhysician({ physicians: [...physicians, colleague], must_choose_physician: true }, "dr", me),
    ).toMatchObject({
      nome: "Dr. Paulo",
      cpf: "11144477735",
      rqe: "777",
    });
  });
});
