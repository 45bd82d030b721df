import type { z } from "zod";
import type { Db } from "../../../db/client.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { FeegowProfessionalImportResult, feegowImportInputSchema } from "../../../shared/schemas/feegow.js";
import { AppError } from "../../errors.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { SessionUser } from "../auth/sessions.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { assertUsersManager } from "../users/access.js";
import { createUser, type RequestContext } from "../users/create-user.js";
import { assertFeature, clientFor, type FeegowConnection, feegowAppError, loadFeegowRow } from "./feegow-store.js";
import { planProfessionals, usersByCpf } from "./feegow-professionals.js";

export interface ImportFeegowProfessionalsOptions {
  db: Db;
  secretBox: SecretBox;
  connection: FeegowConnection;
  actor: SessionUser;
  input: z.output<typeof feegowImportInputSchema>;
  context: RequestContext;
}

/**
 * "Importar" / "Importar todos" (professionals switch; establishments, owner only): each chosen
 * Feegow professional who is not a user yet (by CPF) is added through the users' own add-user
 * path — with an invitation by e-mail, since nobody knows a password for them (decision 016,
 * 017) — one transaction each, audited there (user.created, user.invited) and summed up here.
 * Never a duplicate: the CPF is unique per clinic (profiles_tenant_cpf_unique), so a second
 * import of the same person, even at the same moment, finds them 'existente'.
 */
export async function importFeegowProfessionals({
  db,
  secretBox,
  connection,
  actor,
  input,
  context,
}: ImportFeegowProfessionalsOptions): Promise<FeegowProfessionalImportResult> {
  const row = await withTenant(db, actor.tenantId, async (tx) => {
    await assertUsersManager(tx, actor);
    return loadFeegowRow(tx, actor.tenantId);
  });
  assertFeature(row, "professionals");
  const client = clientFor(row, secretBox, connection);
  const professionals = await client.listProfessionals().catch((error: unknown) => {
    throw feegowAppError(error);
  });
  const wanted = input.ids ? new Set(input.ids) : null;
  const plans = planProfessionals(
    professionals,
    await withTenant(db, actor.tenantId, (tx) => usersByCpf(tx, actor.tenantId)),
  );

  let criados = 0;
  let existentes = 0;
  const ignorados: FeegowProfessionalImportResult["ignorados"] = [];
  const criadosIds: number[] = [];
  for (const plan of plans) {
    if (wanted && !wanted.has(plan.row.feegow_id)) continue;
    if (plan.row.situacao === "existente") {
      existentes += 1;
      continue;
    }
    if (!plan.input) {
      ignorados.push({
        feegow_id: plan.row.feegow_id,
        nome: plan.row.nome,
        motivo: plan.row.motivo ?? "Dados incompletos",
      });
      continue;
    }
    try {
      await createUser(db, actor, plan.input, context);
      criados += 1;
      criadosIds.push(plan.row.feegow_id);
    } catch (error) {
      if (error instanceof AppError && error.code === "USER_CPF_TAKEN") {
        existentes += 1;
      } else if (error instanceof AppError && error.code === "USER_EMAIL_TAKEN") {
        ignorados.push({
          feegow_id: plan.row.feegow_id,
          nome: plan.row.nome,
          motivo:
            "O e-mail deste profissional já está cadastrado no Consentir: cadastre-o em Usuários com outro e-mail.",
        });
      } else {
        throw error;
      }
    }
  }

  const items = await withTenant(db, actor.tenantId, async (tx) => {
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ip: context.ip, userAgent: context.userAgent },
      {
        action: "integration.feegow_professionals_imported",
        entityType: "tenant",
        entityId: actor.tenantId,
        data: {
          criados,
          existentes,
          ignorados: ignorados.length,
          feegow_ids_criados: criadosIds,
          todos: wanted === null,
        },
      },
    );
    return planProfessionals(professionals, await usersByCpf(tx, actor.tenantId)).map((plan) => plan.row);
  });
  return { criados, existentes, ignorados, items };
}
