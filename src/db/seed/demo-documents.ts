import { and, asc, eq, isNotNull, sql } from "drizzle-orm";
import { createDocument } from "../../server/services/documents/create-document.js";
import type { Db } from "../client.js";
import {
  contratos,
  pacientes,
  procedimentoBeneficios,
  procedimentoCuidados,
  procedimentoRiscos,
  procedimentos,
  templates,
  templateVersions,
} from "../schema.js";

const DEMO_DOCUMENTS = [
  { procedimento: "Blefaroplastia", valor: "R$ 8.500,00", dias: 3 },
  { procedimento: "Aplicação de toxina botulínica", valor: "R$ 1.200,00", dias: 1 },
  { procedimento: "Blefaroplastia", valor: "R$ 8.500,00", dias: 0 },
];

/**
 * A few documents for the demo clinic, made by the same service as the app (frozen model, hash,
 * every variable), from the published demo template and the procedures' associated content.
 * Idempotent: does nothing when the clinic already has documents. Their PDFs are generated on
 * the first download.
 */
export async function seedDemoDocuments(db: Db, tenantId: string, ownerId: string): Promise<boolean> {
  const [existing] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(contratos)
    .where(eq(contratos.tenant_id, tenantId));
  if ((existing?.n ?? 0) > 0) return false;
  const [version] = await db
    .select({ id: templateVersions.id })
    .from(templateVersions)
    .innerJoin(templates, eq(templates.id, templateVersions.template_id))
    .where(
      and(
        eq(templateVersions.tenant_id, tenantId),
        isNotNull(templateVersions.published_at),
        eq(templates.categoria, "Consentimento"),
      ),
    )
    .limit(1);
  // Patients with CPF (to sign), e-mail and phone, which the demo template prints.
  const patients = await db
    .select()
    .from(pacientes)
    .where(
      and(
        eq(pacientes.tenant_id, tenantId),
        isNotNull(pacientes.cpf),
        isNotNull(pacientes.email),
        isNotNull(pacientes.telefone),
      ),
    )
    .orderBy(asc(pacientes.nome))
    .limit(DEMO_DOCUMENTS.length);
  if (!version || patients.length === 0) return false;
  const actor = { tenantId, profileId: ownerId, role: "profissional" as const, isOwner: true };
  for (const [i, demo] of DEMO_DOCUMENTS.entries()) {
    const patient = patients[i % patients.length];
    const [procedure] = await db
      .select({ id: procedimentos.id })
      .from(procedimentos)
      .where(and(eq(procedimentos.tenant_id, tenantId), eq(procedimentos.nome, demo.procedimento)))
      .limit(1);
    if (!patient || !procedure) continue;
    const ids = (rows: { id: string }[]) => rows.map((row) => row.id);
    const riscos = ids(
      await db
        .select({ id: procedimentoRiscos.risco_id })
        .from(procedimentoRiscos)
        .where(eq(procedimentoRiscos.procedimento_id, procedure.id)),
    );
    const beneficios = ids(
      await db
        .select({ id: procedimentoBeneficios.beneficio_id })
        .from(procedimentoBeneficios)
        .where(eq(procedimentoBeneficios.procedimento_id, procedure.id)),
    );
    const cuidados = ids(
      await db
        .select({ id: procedimentoCuidados.cuidado_id })
        .from(procedimentoCuidados)
        .where(eq(procedimentoCuidados.procedimento_id, procedure.id)),
    );
    const dataProcedimento = new Date(Date.now() + (demo.dias + 7) * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    await createDocument({
      db,
      actor,
      input: {
        paciente_id: patient.id,
        template_version_id: version.id,
        titulo: `Termo de Consentimento - ${demo.procedimento}`,
        procedimento_id: procedure.id,
        procedimento: undefined,
        data_procedimento: dataProcedimento,
        medico_responsavel_id: ownerId,
        variaveis: {
          valor_procedimento: demo.valor,
          riscos_personalizados: null,
          beneficios_personalizados: null,
          cuidados_personalizados: null,
        },
        conteudo: { riscos, beneficios, cuidados },
        permitir_pendencias: true,
      },
      audit: { ip: undefined, userAgent: "npm run seed" },
      now: new Date(Date.now() - demo.dias * 24 * 60 * 60 * 1000),
    });
  }
  return true;
}
