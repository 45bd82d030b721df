import { sql } from "drizzle-orm";
import { hashPassword } from "../../server/lib/passwords.js";
import { signUp } from "../../server/services/auth/sign-up.js";
import { establishmentSignUpSchema } from "../../shared/schemas/signup.js";
import type { Db } from "../client.js";
import { rawRows } from "../raw.js";
import { pacientes, profiles } from "../schema.js";
import { seedDemoDocuments } from "./demo-documents.js";
import { seedDemoLibrary } from "./demo-library.js";
import { seedDemoTemplates } from "./demo-templates.js";

export const DEMO_EMAIL = "demo@consentir.test";
export const DEMO_PASSWORD = "consentir-demo";

interface StaffMember {
  nome: string;
  email: string;
  cpf: string;
  role: "admin" | "atendente" | "profissional";
  conselho_tipo?: "CRM";
  conselho_numero?: string;
  conselho_uf?: string;
  especialidades?: { especialidade: string; areas_atuacao: string[]; rqe: string }[];
}

/** The demo clinic's staff besides its owner: a secretary, a receptionist and a physician. */
const STAFF: StaffMember[] = [
  { nome: "Juliana Ferreira Campos", email: "secretaria@consentir.test", cpf: "39053344705", role: "admin" },
  { nome: "Rafael Nogueira Dias", email: "recepcao@consentir.test", cpf: "11144477735", role: "atendente" },
  {
    nome: "Dra. Beatriz Lopes Andrade",
    email: "dra.beatriz@consentir.test",
    cpf: "52998224725",
    role: "profissional",
    conselho_tipo: "CRM",
    conselho_numero: "187654",
    conselho_uf: "SP",
    especialidades: [{ especialidade: "dermatologia", areas_atuacao: [], rqe: "64321" }],
  },
];

export interface SeedResult {
  created: boolean;
  tenantId: string;
}

/**
 * A realistic demo clinic whose owner signs in as demo@consentir.test / consentir-demo.
 * Idempotent: run it again and it changes nothing. Later issues add their demo data here.
 */
export async function seedDemoClinic(db: Db): Promise<SeedResult> {
  const existing = await rawRows<{ tenant_id: string }>(
    db,
    sql`select tenant_id from profiles where lower(email) = ${DEMO_EMAIL} limit 1`,
  );
  if (existing[0]) {
    // A clinic seeded before the templates existed gets them now (a no-op when it has any).
    const [owner] = await rawRows<{ id: string }>(
      db,
      sql`select id from profiles where tenant_id = ${existing[0].tenant_id} and is_proprietario limit 1`,
    );
    if (owner) {
      await seedDemoTemplates(db, existing[0].tenant_id, owner.id);
      await seedDemoDocuments(db, existing[0].tenant_id, owner.id);
    }
    return { created: false, tenantId: existing[0].tenant_id };
  }

  const owner = establishmentSignUpSchema.parse({
    profile_type: "estabelecimento",
    tipo_estabelecimento: "clinica",
    razao_social: "Clínica Bem Viver Serviços Médicos Ltda",
    nome_fantasia: "Clínica Bem Viver",
    cnpj: "11.222.333/0001-81",
    cnes: "2077485",
    cep: "01310-100",
    estado: "SP",
    cidade: "São Paulo",
    bairro: "Bela Vista",
    logradouro: "Avenida Paulista",
    numero: "1578",
    complemento: "Conjunto 42",
    nome: "Dr. Carlos Eduardo Mendes",
    cpf: "123.456.789-09",
    email: DEMO_EMAIL,
    telefone: "(11) 3285-4100",
    password: DEMO_PASSWORD,
    confirmPassword: DEMO_PASSWORD,
    conselho_tipo: "CRM",
    conselho_numero: "123456",
    conselho_uf: "SP",
    especialidades: [
      { especialidade: "cirurgia_plastica", areas_atuacao: [], rqe: "45678" },
      { especialidade: "dermatologia", areas_atuacao: [], rqe: "45679" },
    ],
  });
  const { tenantId, profileId: ownerId } = await signUp(db, owner);

  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.insert(profiles).values(
    STAFF.map((member) => ({
      tenant_id: tenantId,
      nome: member.nome,
      email: member.email,
      cpf: member.cpf,
      role: member.role,
      password_hash: passwordHash,
      conselho_tipo: member.conselho_tipo ?? null,
      conselho_numero: member.conselho_numero ?? null,
      conselho_uf: member.conselho_uf ?? null,
      crm: member.conselho_tipo === "CRM" ? (member.conselho_numero ?? null) : null,
      especialidades: member.especialidades ?? [],
      especialidade: member.especialidades?.[0]?.especialidade ?? null,
      rqe: member.especialidades?.[0]?.rqe ?? null,
    })),
  );
  await db.insert(pacientes).values(DEMO_PATIENTS.map((p) => ({ ...p, tenant_id: tenantId })));
  await seedDemoLibrary(db, tenantId, ownerId);
  await seedDemoTemplates(db, tenantId, ownerId);
  await seedDemoDocuments(db, tenantId, ownerId);
  return { created: true, tenantId };
}

/** Demo patients: adults and a minor with a guardian, some with full address. */
const DEMO_PATIENTS = [
  {
    nome: "Maria Aparecida dos Santos",
    cpf: "52998224725",
    data_nascimento: "1978-04-12",
    sexo: "feminino" as const,
    telefone: "11987654321",
    email: "maria.santos@exemplo.com.br",
    cep: "01310100",
    logradouro: "Avenida Paulista",
    numero: "900",
    complemento: "Apto 52",
    bairro: "Bela Vista",
    cidade: "São Paulo",
    uf: "SP",
  },
  {
    nome: "José Carlos Ferreira",
    cpf: "11144477735",
    data_nascimento: "1961-09-30",
    sexo: "masculino" as const,
    telefone: "11976543210",
    email: "jose.ferreira@exemplo.com.br",
    cep: "04538133",
    logradouro: "Avenida Brigadeiro Faria Lima",
    numero: "3477",
    bairro: "Itaim Bibi",
    cidade: "São Paulo",
    uf: "SP",
  },
  {
    nome: "Ana Luíza Carvalho",
    cpf: "39053344705",
    data_nascimento: "1992-01-25",
    sexo: "feminino" as const,
    telefone: "21998765432",
    email: "ana.carvalho@exemplo.com.br",
    cidade: "Rio de Janeiro",
    uf: "RJ",
  },
  {
    nome: "Pedro Henrique Oliveira",
    cpf: "86288366757",
    data_nascimento: "2012-07-08",
    sexo: "masculino" as const,
    telefone: "11965432109",
    responsavel_nome: "Cláudia Oliveira",
    responsavel_cpf: "71428793860",
  },
  {
    nome: "Francisca das Chagas Lima",
    cpf: "74682489070",
    data_nascimento: "1955-11-19",
    sexo: "feminino" as const,
    telefone: "1132851234",
  },
  {
    nome: "Lucas Gabriel Souza",
    cpf: "98765432100",
    data_nascimento: "2001-03-03",
    sexo: "masculino" as const,
    email: "lucas.souza@exemplo.com.br",
  },
  {
    nome: "Beatriz Almeida Rocha",
    data_nascimento: "1988-06-21",
    sexo: "feminino" as const,
    telefone: "31991234567",
    email: "beatriz.rocha@exemplo.com.br",
    cidade: "Belo Horizonte",
    uf: "MG",
  },
  { nome: "Rafael Nunes Teixeira", data_nascimento: "1970-12-02", sexo: "masculino" as const, telefone: "11955554444" },
];
