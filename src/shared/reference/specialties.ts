import type { ConselhoTipo } from "./councils.js";

export interface AreaAtuacao {
  /** Slug estável (minúsculas, sem acentos, separado por "_"). */
  readonly codigo: string;
  /** Nome em pt-BR, com acentos. */
  readonly nome: string;
}

export interface Especialidade {
  /** Slug estável (minúsculas, sem acentos, separado por "_"). */
  readonly codigo: string;
  /** Nome em pt-BR, com acentos. */
  readonly nome: string;
  /** Áreas de atuação ligadas à especialidade (só o CRM liga áreas a especialidades). */
  readonly areas: readonly AreaAtuacao[];
}

// ---------------------------------------------------------------------------
// CRM — Medicina
// Especialidades e áreas de atuação reconhecidas pela Comissão Mista de
// Especialidades (CFM/AMB/CNRM): Resolução CFM nº 2.330/2023, que sucedeu a
// nº 2.221/2018 (55 especialidades). A 2.330/2023 acrescentou as áreas
// Auditoria Médica e Ultrassonografia Geral.
// ---------------------------------------------------------------------------

const AREAS_CRM_NOMES = {
  administracao_em_saude: "Administração em Saúde",
  alergia_imunologia_pediatrica: "Alergia e Imunologia Pediátrica",
  angiorradiologia_cirurgia_endovascular: "Angiorradiologia e Cirurgia Endovascular",
  atendimento_ao_queimado: "Atendimento ao Queimado",
  auditoria_medica: "Auditoria Médica",
  cardiologia_pediatrica: "Cardiologia Pediátrica",
  cirurgia_cranio_maxilo_facial: "Cirurgia Crânio-Maxilo-Facial",
  cirurgia_do_trauma: "Cirurgia do Trauma",
  cirurgia_videolaparoscopica: "Cirurgia Videolaparoscópica",
  citopatologia: "Citopatologia",
  densitometria_ossea: "Densitometria Óssea",
  dor: "Dor",
  ecocardiografia: "Ecocardiografia",
  ecografia_vascular_doppler: "Ecografia Vascular com Doppler",
  eletrofisiologia_clinica_invasiva: "Eletrofisiologia Clínica Invasiva",
  emergencia_pediatrica: "Emergência Pediátrica",
  endocrinologia_pediatrica: "Endocrinologia Pediátrica",
  endoscopia_digestiva: "Endoscopia Digestiva",
  endoscopia_ginecologica: "Endoscopia Ginecológica",
  endoscopia_respiratoria: "Endoscopia Respiratória",
  ergometria: "Ergometria",
  estimulacao_cardiaca_eletronica_implantavel: "Estimulação Cardíaca Eletrônica Implantável",
  foniatria: "Foniatria",
  gastroenterologia_pediatrica: "Gastroenterologia Pediátrica",
  hansenologia: "Hansenologia",
  hematologia_hemoterapia_pediatrica: "Hematologia e Hemoterapia Pediátrica",
  hemodinamica_cardiologia_intervencionista: "Hemodinâmica e Cardiologia Intervencionista",
  hepatologia: "Hepatologia",
  infectologia_hospitalar: "Infectologia Hospitalar",
  infectologia_pediatrica: "Infectologia Pediátrica",
  mamografia: "Mamografia",
  medicina_aeroespacial: "Medicina Aeroespacial",
  medicina_do_adolescente: "Medicina do Adolescente",
  medicina_do_sono: "Medicina do Sono",
  medicina_fetal: "Medicina Fetal",
  medicina_intensiva_pediatrica: "Medicina Intensiva Pediátrica",
  medicina_paliativa: "Medicina Paliativa",
  medicina_tropical: "Medicina Tropical",
  nefrologia_pediatrica: "Nefrologia Pediátrica",
  neonatologia: "Neonatologia",
  neurofisiologia_clinica: "Neurofisiologia Clínica",
  neurologia_pediatrica: "Neurologia Pediátrica",
  neurorradiologia: "Neurorradiologia",
  nutricao_parenteral_enteral: "Nutrição Parenteral e Enteral",
  nutricao_parenteral_enteral_pediatrica: "Nutrição Parenteral e Enteral Pediátrica",
  nutrologia_pediatrica: "Nutrologia Pediátrica",
  oncologia_pediatrica: "Oncologia Pediátrica",
  pneumologia_pediatrica: "Pneumologia Pediátrica",
  psicogeriatria: "Psicogeriatria",
  psicoterapia: "Psicoterapia",
  psiquiatria_infancia_adolescencia: "Psiquiatria da Infância e Adolescência",
  psiquiatria_forense: "Psiquiatria Forense",
  radiologia_intervencionista_angiorradiologia: "Radiologia Intervencionista e Angiorradiologia",
  reproducao_assistida: "Reprodução Assistida",
  reumatologia_pediatrica: "Reumatologia Pediátrica",
  sexologia: "Sexologia",
  toxicologia_medica: "Toxicologia Médica",
  transplante_medula_ossea: "Transplante de Medula Óssea",
  ultrassonografia_geral: "Ultrassonografia Geral",
  ultrassonografia_ginecologia_obstetricia: "Ultrassonografia em Ginecologia e Obstetrícia",
} as const;

export type AreaCrmCodigo = keyof typeof AREAS_CRM_NOMES;

/** Todas as áreas de atuação médicas (CRM), sem vínculo com especialidade. */
export const AREAS_CRM: readonly AreaAtuacao[] = (Object.keys(AREAS_CRM_NOMES) as AreaCrmCodigo[]).map((codigo) => ({
  codigo,
  nome: AREAS_CRM_NOMES[codigo],
}));

function crm(codigo: string, nome: string, areas: readonly AreaCrmCodigo[] = []): Especialidade {
  return { codigo, nome, areas: areas.map((c) => ({ codigo: c, nome: AREAS_CRM_NOMES[c] })) };
}

export const ESPECIALIDADES_CRM: readonly Especialidade[] = [
  crm("acupuntura", "Acupuntura", ["dor"]),
  crm("alergia_imunologia", "Alergia e Imunologia", ["alergia_imunologia_pediatrica"]),
  crm("anestesiologia", "Anestesiologia", ["dor", "medicina_paliativa"]),
  crm("angiologia", "Angiologia", ["angiorradiologia_cirurgia_endovascular", "ecografia_vascular_doppler"]),
  crm("cardiologia", "Cardiologia", [
    "cardiologia_pediatrica",
    "ecocardiografia",
    "eletrofisiologia_clinica_invasiva",
    "ergometria",
    "estimulacao_cardiaca_eletronica_implantavel",
    "hemodinamica_cardiologia_intervencionista",
  ]),
  crm("cirurgia_cardiovascular", "Cirurgia Cardiovascular", ["estimulacao_cardiaca_eletronica_implantavel"]),
  crm("cirurgia_mao", "Cirurgia da Mão"),
  crm("cirurgia_cabeca_pescoco", "Cirurgia de Cabeça e Pescoço", ["cirurgia_cranio_maxilo_facial"]),
  crm("cirurgia_aparelho_digestivo", "Cirurgia do Aparelho Digestivo", [
    "cirurgia_videolaparoscopica",
    "endoscopia_digestiva",
    "nutricao_parenteral_enteral",
  ]),
  crm("cirurgia_geral", "Cirurgia Geral", [
    "atendimento_ao_queimado",
    "cirurgia_do_trauma",
    "cirurgia_videolaparoscopica",
    "endoscopia_digestiva",
    "nutricao_parenteral_enteral",
  ]),
  crm("cirurgia_oncologica", "Cirurgia Oncológica"),
  crm("cirurgia_pediatrica", "Cirurgia Pediátrica", ["nutricao_parenteral_enteral_pediatrica"]),
  crm("cirurgia_plastica", "Cirurgia Plástica", ["atendimento_ao_queimado", "cirurgia_cranio_maxilo_facial"]),
  crm("cirurgia_toracica", "Cirurgia Torácica", ["endoscopia_respiratoria"]),
  crm("cirurgia_vascular", "Cirurgia Vascular", [
    "angiorradiologia_cirurgia_endovascular",
    "ecografia_vascular_doppler",
  ]),
  crm("clinica_medica", "Clínica Médica", [
    "dor",
    "hansenologia",
    "medicina_aeroespacial",
    "medicina_do_sono",
    "medicina_paliativa",
    "medicina_tropical",
    "nutricao_parenteral_enteral",
    "toxicologia_medica",
  ]),
  crm("coloproctologia", "Coloproctologia", ["endoscopia_digestiva"]),
  crm("dermatologia", "Dermatologia", ["hansenologia"]),
  crm("endocrinologia_metabologia", "Endocrinologia e Metabologia", [
    "densitometria_ossea",
    "endocrinologia_pediatrica",
  ]),
  crm("endoscopia", "Endoscopia", ["endoscopia_digestiva", "endoscopia_respiratoria"]),
  crm("gastroenterologia", "Gastroenterologia", [
    "endoscopia_digestiva",
    "gastroenterologia_pediatrica",
    "hepatologia",
    "nutricao_parenteral_enteral",
  ]),
  crm("genetica_medica", "Genética Médica"),
  crm("geriatria", "Geriatria", ["medicina_paliativa"]),
  crm("ginecologia_obstetricia", "Ginecologia e Obstetrícia", [
    "densitometria_ossea",
    "endoscopia_ginecologica",
    "mamografia",
    "medicina_fetal",
    "reproducao_assistida",
    "sexologia",
    "ultrassonografia_ginecologia_obstetricia",
  ]),
  crm("hematologia_hemoterapia", "Hematologia e Hemoterapia", [
    "hematologia_hemoterapia_pediatrica",
    "transplante_medula_ossea",
  ]),
  crm("homeopatia", "Homeopatia"),
  crm("infectologia", "Infectologia", [
    "hansenologia",
    "hepatologia",
    "infectologia_hospitalar",
    "infectologia_pediatrica",
    "medicina_tropical",
  ]),
  crm("mastologia", "Mastologia", ["mamografia"]),
  crm("medicina_emergencia", "Medicina de Emergência"),
  crm("medicina_familia_comunidade", "Medicina de Família e Comunidade", ["hansenologia", "medicina_paliativa"]),
  crm("medicina_trabalho", "Medicina do Trabalho", ["medicina_aeroespacial"]),
  crm("medicina_trafego", "Medicina de Tráfego", ["medicina_aeroespacial"]),
  crm("medicina_esportiva", "Medicina Esportiva"),
  crm("medicina_fisica_reabilitacao", "Medicina Física e Reabilitação", ["dor", "neurofisiologia_clinica"]),
  crm("medicina_intensiva", "Medicina Intensiva", [
    "medicina_intensiva_pediatrica",
    "medicina_paliativa",
    "nutricao_parenteral_enteral",
    "toxicologia_medica",
  ]),
  crm("medicina_legal_pericia_medica", "Medicina Legal e Perícia Médica"),
  crm("medicina_nuclear", "Medicina Nuclear", ["densitometria_ossea"]),
  crm("medicina_preventiva_social", "Medicina Preventiva e Social", ["administracao_em_saude", "auditoria_medica"]),
  crm("nefrologia", "Nefrologia", ["nefrologia_pediatrica"]),
  crm("neurocirurgia", "Neurocirurgia", ["dor", "neurofisiologia_clinica"]),
  crm("neurologia", "Neurologia", ["dor", "medicina_do_sono", "neurofisiologia_clinica", "neurologia_pediatrica"]),
  crm("nutrologia", "Nutrologia", ["nutricao_parenteral_enteral", "nutrologia_pediatrica"]),
  crm("oftalmologia", "Oftalmologia"),
  crm("oncologia_clinica", "Oncologia Clínica", [
    "dor",
    "medicina_paliativa",
    "oncologia_pediatrica",
    "transplante_medula_ossea",
  ]),
  crm("ortopedia_traumatologia", "Ortopedia e Traumatologia", ["densitometria_ossea", "dor"]),
  crm("otorrinolaringologia", "Otorrinolaringologia", [
    "cirurgia_cranio_maxilo_facial",
    "endoscopia_respiratoria",
    "foniatria",
    "medicina_do_sono",
  ]),
  crm("patologia", "Patologia", ["citopatologia"]),
  crm("patologia_clinica_medicina_laboratorial", "Patologia Clínica/Medicina Laboratorial"),
  crm("pediatria", "Pediatria", [
    "alergia_imunologia_pediatrica",
    "cardiologia_pediatrica",
    "ecocardiografia",
    "emergencia_pediatrica",
    "endocrinologia_pediatrica",
    "endoscopia_respiratoria",
    "gastroenterologia_pediatrica",
    "hematologia_hemoterapia_pediatrica",
    "hemodinamica_cardiologia_intervencionista",
    "infectologia_pediatrica",
    "medicina_do_adolescente",
    "medicina_do_sono",
    "medicina_intensiva_pediatrica",
    "medicina_paliativa",
    "nefrologia_pediatrica",
    "neonatologia",
    "neurologia_pediatrica",
    "nutricao_parenteral_enteral_pediatrica",
    "nutrologia_pediatrica",
    "oncologia_pediatrica",
    "pneumologia_pediatrica",
    "reumatologia_pediatrica",
    "toxicologia_medica",
  ]),
  crm("pneumologia", "Pneumologia", [
    "endoscopia_respiratoria",
    "medicina_do_sono",
    "pneumologia_pediatrica",
    "toxicologia_medica",
  ]),
  crm("psiquiatria", "Psiquiatria", [
    "medicina_do_sono",
    "psicogeriatria",
    "psicoterapia",
    "psiquiatria_forense",
    "psiquiatria_infancia_adolescencia",
    "sexologia",
  ]),
  crm("radiologia_diagnostico_imagem", "Radiologia e Diagnóstico por Imagem", [
    "angiorradiologia_cirurgia_endovascular",
    "densitometria_ossea",
    "ecografia_vascular_doppler",
    "mamografia",
    "neurorradiologia",
    "radiologia_intervencionista_angiorradiologia",
    "ultrassonografia_geral",
    "ultrassonografia_ginecologia_obstetricia",
  ]),
  crm("radioterapia", "Radioterapia"),
  crm("reumatologia", "Reumatologia", ["densitometria_ossea", "dor", "reumatologia_pediatrica"]),
  crm("urologia", "Urologia", ["sexologia"]),
];

// ---------------------------------------------------------------------------
// CRO — Odontologia
// Especialidades reconhecidas pelo CFO: as 19 da Resolução CFO-63/2005
// (com os nomes atuais), Acupuntura, Homeopatia e Odontologia do Esporte
// (Resolução CFO-160/2015) e Harmonização Orofacial (Resolução CFO-198/2019).
// ---------------------------------------------------------------------------

function semAreas(codigo: string, nome: string): Especialidade {
  return { codigo, nome, areas: [] };
}

export const ESPECIALIDADES_CRO: readonly Especialidade[] = [
  semAreas("acupuntura", "Acupuntura"),
  semAreas("cirurgia_traumatologia_bucomaxilofaciais", "Cirurgia e Traumatologia Bucomaxilofaciais"),
  semAreas("dentistica", "Dentística"),
  semAreas("disfuncao_temporomandibular_dor_orofacial", "Disfunção Temporomandibular e Dor Orofacial"),
  semAreas("endodontia", "Endodontia"),
  semAreas("estomatologia", "Estomatologia"),
  semAreas("harmonizacao_orofacial", "Harmonização Orofacial"),
  semAreas("homeopatia", "Homeopatia"),
  semAreas("implantodontia", "Implantodontia"),
  semAreas("odontogeriatria", "Odontogeriatria"),
  semAreas("odontologia_esporte", "Odontologia do Esporte"),
  semAreas("odontologia_trabalho", "Odontologia do Trabalho"),
  semAreas("odontologia_legal", "Odontologia Legal"),
  semAreas("odontologia_pacientes_necessidades_especiais", "Odontologia para Pacientes com Necessidades Especiais"),
  semAreas("odontopediatria", "Odontopediatria"),
  semAreas("ortodontia", "Ortodontia"),
  semAreas("ortopedia_funcional_maxilares", "Ortopedia Funcional dos Maxilares"),
  semAreas("patologia_oral_maxilofacial", "Patologia Oral e Maxilofacial"),
  semAreas("periodontia", "Periodontia"),
  semAreas("protese_bucomaxilofacial", "Prótese Bucomaxilofacial"),
  semAreas("protese_dentaria", "Prótese Dentária"),
  semAreas("radiologia_odontologica_imaginologia", "Radiologia Odontológica e Imaginologia"),
  semAreas("saude_coletiva", "Saúde Coletiva"),
];

/**
 * Áreas de atuação odontológicas: as habilitações registradas pelo CFO
 * (práticas integrativas da Resolução CFO-82/2008 que não viraram
 * especialidade, Odontologia Antroposófica, Odontologia Hospitalar,
 * Ozonioterapia e Sedação Consciente com Óxido Nitroso). Não dependem da
 * especialidade escolhida.
 */
export const AREAS_CRO: readonly AreaAtuacao[] = [
  { codigo: "fitoterapia", nome: "Fitoterapia" },
  { codigo: "hipnose", nome: "Hipnose" },
  { codigo: "laserterapia", nome: "Laserterapia" },
  { codigo: "odontologia_antroposofica", nome: "Odontologia Antroposófica" },
  { codigo: "odontologia_hospitalar", nome: "Odontologia Hospitalar" },
  { codigo: "ozonioterapia", nome: "Ozonioterapia" },
  { codigo: "sedacao_consciente_oxido_nitroso", nome: "Sedação Consciente com Óxido Nitroso" },
  { codigo: "terapia_floral", nome: "Terapia Floral" },
];

// ---------------------------------------------------------------------------
// COREN, CREFITO e CRBM — lista única compartilhada; sem áreas de atuação.
// ---------------------------------------------------------------------------

export const ESPECIALIDADES_OUTROS: readonly Especialidade[] = [
  semAreas("acupuntura", "Acupuntura"),
  semAreas("analises_clinicas", "Análises Clínicas"),
  semAreas("biomedicina_estetica", "Biomedicina Estética"),
  semAreas("enfermagem_dermatologica", "Enfermagem Dermatológica"),
  semAreas("enfermagem_estetica", "Enfermagem Estética"),
  semAreas("enfermagem_obstetrica", "Enfermagem Obstétrica"),
  semAreas("fisioterapia_dermatofuncional", "Fisioterapia Dermatofuncional"),
  semAreas("fisioterapia_esportiva", "Fisioterapia Esportiva"),
  semAreas("fisioterapia_neurofuncional", "Fisioterapia Neurofuncional"),
  semAreas("fisioterapia_traumato_ortopedica", "Fisioterapia Traumato-Ortopédica"),
  semAreas("imagenologia", "Imagenologia"),
];

// ---------------------------------------------------------------------------
// Regras e consultas
// ---------------------------------------------------------------------------

/** CRM e CRO exigem ao menos uma especialidade; os demais conselhos, nenhuma. */
export function requiresSpecialty(conselho: ConselhoTipo): boolean {
  return conselho === "CRM" || conselho === "CRO";
}

/** Só o CRM exige RQE para cada especialidade. */
export function requiresRqe(conselho: ConselhoTipo): boolean {
  return conselho === "CRM";
}

export function specialtiesFor(conselho: ConselhoTipo): readonly Especialidade[] {
  switch (conselho) {
    case "CRM":
      return ESPECIALIDADES_CRM;
    case "CRO":
      return ESPECIALIDADES_CRO;
    case "COREN":
    case "CREFITO":
    case "CRBM":
      return ESPECIALIDADES_OUTROS;
    default: {
      const unreachable: never = conselho;
      throw new Error(`Conselho desconhecido: ${String(unreachable)}`);
    }
  }
}

export function findSpecialty(conselho: ConselhoTipo, codigo: string): Especialidade | undefined {
  return specialtiesFor(conselho).find((e) => e.codigo === codigo);
}

/**
 * Áreas de atuação que podem ser escolhidas para uma especialidade.
 * CRM: as áreas ligadas à especialidade ([] se o código não existir).
 * CRO: as áreas odontológicas, qualquer que seja a especialidade.
 * Demais conselhos: [].
 */
export function areasFor(conselho: ConselhoTipo, especialidadeCodigo: string): readonly AreaAtuacao[] {
  switch (conselho) {
    case "CRM":
      return findSpecialty("CRM", especialidadeCodigo)?.areas ?? [];
    case "CRO":
      return AREAS_CRO;
    default:
      return [];
  }
}

/** Se a área pode ser escolhida para a especialidade no conselho dado. */
export function isAreaFor(conselho: ConselhoTipo, especialidadeCodigo: string, areaCodigo: string): boolean {
  return areasFor(conselho, especialidadeCodigo).some((a) => a.codigo === areaCodigo);
}

const LISTAS_EM_ORDEM: readonly (readonly Especialidade[])[] = [
  ESPECIALIDADES_CRM,
  ESPECIALIDADES_CRO,
  ESPECIALIDADES_OUTROS,
];

/**
 * Nome de exibição de uma especialidade pelo código. Procura no conselho
 * indicado ou, sem conselho, em todas as listas (um código repetido entre
 * listas tem sempre o mesmo nome). Um código desconhecido é devolvido como
 * veio, para não esconder valores antigos em texto livre.
 */
export function specialtyName(codigo: string, conselho?: ConselhoTipo): string {
  const listas = conselho ? [specialtiesFor(conselho)] : LISTAS_EM_ORDEM;
  for (const lista of listas) {
    const found = lista.find((e) => e.codigo === codigo);
    if (found) return found.nome;
  }
  return codigo;
}
