import type { pacientes } from "../../db/schema.js";
import type { Patient } from "../../shared/schemas/patient.js";

type PatientRow = typeof pacientes.$inferSelect;

function oneLineAddress(row: PatientRow): string | null {
  const street = [row.logradouro, row.numero].filter(Boolean).join(", ");
  const parts = [street, row.complemento, row.bairro, [row.cidade, row.uf].filter(Boolean).join("/")].filter(Boolean);
  if (parts.length === 0) return null;
  const cep = row.cep ? ` — CEP ${row.cep.slice(0, 5)}-${row.cep.slice(5)}` : "";
  return `${parts.join(", ")}${cep}`;
}

export function presentPatient(row: PatientRow, contratosCount = 0): Patient {
  return {
    id: row.id,
    nome: row.nome,
    cpf: row.cpf,
    data_nascimento: row.data_nascimento,
    sexo: row.sexo,
    telefone: row.telefone,
    email: row.email,
    cep: row.cep,
    logradouro: row.logradouro,
    numero: row.numero,
    complemento: row.complemento,
    bairro: row.bairro,
    cidade: row.cidade,
    uf: row.uf,
    endereco: oneLineAddress(row),
    responsavel_nome: row.responsavel_nome,
    responsavel_cpf: row.responsavel_cpf,
    responsavel_email: row.responsavel_email,
    responsavel_telefone: row.responsavel_telefone,
    contratos_count: contratosCount,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
