/**
 * Variable placeholders ({{name}}) of structured templates (spec part 2, §3): the catalogue shown
 * in the editor, the ONE alias table, the preview sample set and placeholder discovery.
 */

export interface VariableDefinition {
  /** Name written between the double braces. */
  readonly name: string;
  /** pt-BR label shown to the user. */
  readonly label: string;
}

export interface VariableGroup {
  readonly id: "paciente" | "procedimento" | "profissional" | "unidade" | "data_hora";
  readonly label: string;
  readonly variables: readonly VariableDefinition[];
}

/** The editor's catalogue, grouped exactly as spec part 2, §3 (data_procedimento is in two groups). */
export const VARIABLE_GROUPS: readonly VariableGroup[] = [
  {
    id: "paciente",
    label: "Paciente",
    variables: [
      { name: "paciente_nome", label: "Nome do paciente" },
      { name: "paciente_cpf", label: "CPF do paciente" },
      { name: "paciente_idade", label: "Idade do paciente" },
      { name: "paciente_email", label: "E-mail do paciente" },
      { name: "paciente_telefone", label: "Telefone do paciente" },
      { name: "responsavel_nome", label: "Nome do responsável" },
      { name: "responsavel_cpf", label: "CPF do responsável" },
    ],
  },
  {
    id: "procedimento",
    label: "Procedimento",
    variables: [
      { name: "procedimento", label: "Nome do procedimento" },
      { name: "data_procedimento", label: "Data do procedimento" },
      { name: "valor_procedimento", label: "Valor do procedimento" },
      { name: "riscos", label: "Riscos" },
      { name: "beneficios", label: "Benefícios" },
      { name: "cuidados_pos", label: "Cuidados pós-procedimento" },
    ],
  },
  {
    id: "profissional",
    label: "Profissional",
    variables: [
      { name: "profissional_nome", label: "Nome do profissional" },
      { name: "profissional_crm", label: "CRM do profissional" },
      { name: "profissional_especialidade", label: "Especialidade do profissional" },
    ],
  },
  {
    id: "unidade",
    label: "Unidade",
    variables: [
      { name: "unidade_nome", label: "Nome da unidade" },
      { name: "unidade_endereco", label: "Endereço da unidade" },
      { name: "unidade_telefone", label: "Telefone da unidade" },
    ],
  },
  {
    id: "data_hora",
    label: "Data/Hora",
    variables: [
      { name: "data_atual", label: "Data atual" },
      { name: "hora_atual", label: "Hora atual" },
      { name: "data_procedimento", label: "Data do procedimento" },
      { name: "data_vencimento", label: "Data de vencimento" },
    ],
  },
];

/**
 * Canonical variables that are not in the editor's groups: the preview's personalised lists and
 * the document variables filled at creation that have no group entry.
 */
export const EXTRA_VARIABLES: readonly VariableDefinition[] = [
  { name: "riscos_personalizados", label: "Riscos personalizados" },
  { name: "beneficios_personalizados", label: "Benefícios personalizados" },
  { name: "cuidados_personalizados", label: "Cuidados pós-procedimento personalizados" },
  { name: "paciente_data_nascimento", label: "Data de nascimento do paciente" },
  { name: "profissional_cpf", label: "CPF do profissional" },
  { name: "profissional_rqe", label: "RQE do profissional" },
  { name: "profissional_conselho_tipo", label: "Conselho do profissional" },
  { name: "profissional_conselho_numero", label: "Número no conselho" },
  { name: "profissional_conselho_uf", label: "UF do conselho" },
  { name: "titulo", label: "Título do documento" },
  { name: "data_criacao", label: "Data de criação do documento" },
  { name: "responsavel_linha", label: "Linha do responsável legal (some sem responsável)" },
];

/**
 * The ONE alias table: alias → canonical variable. Catalogue names riscos, beneficios and
 * cuidados_pos are aliases of the personalised lists (the lists chosen for the document, filled at
 * creation as *_personalizados).
 */
export const VARIABLE_ALIASES: Readonly<Record<string, string>> = {
  // Profissional (profissional_* variants, medico_* document variables and short forms)
  profissional: "profissional_nome",
  profissional_responsavel: "profissional_nome",
  profissional_registro: "profissional_crm",
  profissional_conselho: "profissional_conselho_tipo",
  profissional_especialidades: "profissional_especialidade",
  medico: "profissional_nome",
  medico_responsavel: "profissional_nome",
  doutor: "profissional_nome",
  doctor: "profissional_nome",
  medico_nome: "profissional_nome",
  medico_cpf: "profissional_cpf",
  medico_crm: "profissional_crm",
  medico_especialidade: "profissional_especialidade",
  medico_rqe: "profissional_rqe",
  medico_conselho_tipo: "profissional_conselho_tipo",
  medico_conselho_numero: "profissional_conselho_numero",
  medico_conselho_uf: "profissional_conselho_uf",
  crm: "profissional_crm",
  rqe: "profissional_rqe",
  especialidade: "profissional_especialidade",
  // Procedimento
  riscos: "riscos_personalizados",
  beneficios: "beneficios_personalizados",
  cuidados: "cuidados_personalizados",
  cuidados_pos: "cuidados_personalizados",
  cuidados_pos_operatorio: "cuidados_personalizados",
  valor: "valor_procedimento",
  preco: "valor_procedimento",
  // Paciente
  paciente: "paciente_nome",
  patient: "paciente_nome",
  nome_paciente: "paciente_nome",
  cpf_paciente: "paciente_cpf",
  telefone_paciente: "paciente_telefone",
  email_paciente: "paciente_email",
  data_nascimento_paciente: "paciente_data_nascimento",
};

function uniqueNames(defs: readonly VariableDefinition[]): string[] {
  return [...new Set(defs.map((d) => d.name))];
}

/** Every canonical variable name (catalogue names that are aliases excluded). */
export const CANONICAL_VARIABLES: readonly string[] = uniqueNames([
  ...VARIABLE_GROUPS.flatMap((g) => g.variables),
  ...EXTRA_VARIABLES,
]).filter((name) => !(name in VARIABLE_ALIASES));

const LABELS: ReadonlyMap<string, string> = new Map(
  [...VARIABLE_GROUPS.flatMap((g) => g.variables), ...EXTRA_VARIABLES].map((d) => [d.name, d.label]),
);

/** The pt-BR label of a variable (alias or canonical), or undefined when unknown. */
export function variableLabel(name: string): string | undefined {
  const key = name.trim().toLowerCase();
  return LABELS.get(key) ?? LABELS.get(resolveVariableName(key));
}

/**
 * Variables whose empty value is a value, not a gap: "{{responsavel_linha}}" is the guardian's line
 * when the record names a guardian and nothing at all for an adult signing alone (its line then
 * disappears) — never reported as unresolved.
 */
export const MAY_BE_EMPTY_VARIABLES: ReadonlySet<string> = new Set(["responsavel_linha"]);

/** Canonical name for a placeholder name (trimmed, lower-cased); unknown names come back normalised. */
export function resolveVariableName(name: string): string {
  const key = name.trim().toLowerCase();
  return VARIABLE_ALIASES[key] ?? key;
}

/** True when the name is a canonical variable or an alias of one. */
export function isKnownVariable(name: string): boolean {
  return CANONICAL_VARIABLES.includes(resolveVariableName(name));
}

/** All names (canonical first, then aliases) that resolve to the same canonical variable. */
export function variableNamesFor(name: string): string[] {
  const canonical = resolveVariableName(name);
  return [
    canonical,
    ...Object.entries(VARIABLE_ALIASES)
      .filter(([, target]) => target === canonical)
      .map(([alias]) => alias),
  ];
}

/** Realistic pt-BR sample data for the template preview: one value per canonical variable. */
export const PREVIEW_SAMPLE_VALUES: Readonly<Record<string, string>> = {
  paciente_nome: "Maria Aparecida da Silva",
  paciente_cpf: "123.456.789-09",
  paciente_idade: "42 anos",
  paciente_email: "maria.silva@exemplo.com.br",
  paciente_telefone: "(11) 98765-4321",
  paciente_data_nascimento: "15/03/1983",
  responsavel_nome: "José Carlos da Silva",
  responsavel_cpf: "987.654.321-00",
  responsavel_linha: "Responsável legal: José Carlos da Silva - CPF 987.654.321-00",
  procedimento: "Blefaroplastia superior",
  data_procedimento: "15/07/2025",
  valor_procedimento: "R$ 4.500,00",
  riscos_personalizados:
    "Hematoma e edema na região operada\nInfecção no local da incisão\nAssimetria palpebral\nCicatriz aparente",
  beneficios_personalizados: "Melhora do campo visual superior\nAparência mais descansada do olhar\nRecuperação rápida",
  cuidados_personalizados:
    "Aplicar compressas frias nas primeiras 48 horas\nEvitar esforço físico por 15 dias\nNão se expor ao sol sem proteção por 30 dias",
  profissional_nome: "Dr. Ricardo Almeida Souza",
  profissional_cpf: "321.654.987-11",
  profissional_crm: "CRM-SP 123456",
  profissional_especialidade: "Cirurgia Plástica",
  profissional_rqe: "45678",
  profissional_conselho_tipo: "CRM",
  profissional_conselho_numero: "123456",
  profissional_conselho_uf: "SP",
  unidade_nome: "Clínica Bem Estar",
  unidade_endereco: "Av. Paulista, 1000, sala 501 - Bela Vista, São Paulo - SP, 01310-100",
  unidade_telefone: "(11) 3456-7890",
  data_atual: "01/07/2025",
  hora_atual: "14:30",
  data_vencimento: "08/07/2025",
  titulo: "Termo de Consentimento - Blefaroplastia",
  data_criacao: "01/07/2025",
};

const PLACEHOLDER_SOURCE = String.raw`\{\{\s*([\p{L}\p{N}_.\-]+)\s*\}\}`;

/** A fresh global regex matching one placeholder; group 1 is the name without spaces. */
export function placeholderRegex(): RegExp {
  return new RegExp(PLACEHOLDER_SOURCE, "gu");
}

/** Distinct placeholder names in the text, as written (spaces inside the braces dropped), in order. */
export function findPlaceholders(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(placeholderRegex())) {
    const name = match[1];
    if (name !== undefined && !names.includes(name)) names.push(name);
  }
  return names;
}
