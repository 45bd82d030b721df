import type { Database } from "../../src/db/client.js";
import { contratos, pacientes } from "../../src/db/schema.js";

/**
 * Test stand-ins for the documents feature (not built yet): rows written straight into the
 * database, as the owner role, for a given clinic.
 */
export async function insertPatient(database: Database, tenantId: string, nome = "Paciente de Teste"): Promise<string> {
  const [row] = await database.db
    .insert(pacientes)
    .values({ tenant_id: tenantId, nome })
    .returning({ id: pacientes.id });
  if (!row) throw new Error("pacientes insert returned no row");
  return row.id;
}

export interface DocumentRowOptions {
  tenantId: string;
  pacienteId: string;
  templateVersionId: string;
  status?: (typeof contratos.$inferInsert)["status"];
  createdAt?: Date;
  titulo?: string;
}

/** One contratos row made from `templateVersionId`; returns its id. */
export async function insertDocument(database: Database, options: DocumentRowOptions): Promise<string> {
  const createdAt = options.createdAt ?? new Date();
  const [row] = await database.db
    .insert(contratos)
    .values({
      tenant_id: options.tenantId,
      paciente_id: options.pacienteId,
      template_version_id: options.templateVersionId,
      titulo: options.titulo ?? "Termo de Consentimento",
      status: options.status ?? "draft",
      documento: {},
      conteudo_sha256: "0".repeat(64),
      expiracao_at: new Date(createdAt.getTime() + 7 * 24 * 60 * 60 * 1000),
      created_at: createdAt,
      updated_at: createdAt,
    })
    .returning({ id: contratos.id });
  if (!row) throw new Error("contratos insert returned no row");
  return row.id;
}
