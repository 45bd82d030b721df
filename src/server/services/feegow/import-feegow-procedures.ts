import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { procedimentos } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { matchProcedures } from "../../../shared/feegow/match-procedures.js";
import type { FeegowProcedureImportResult, feegowImportInputSchema } from "../../../shared/schemas/feegow.js";
import type { z } from "zod";
import type { SecretBox } from "../../lib/secret-box.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { assertFeature, clientFor, type FeegowConnection, feegowAppError, loadFeegowRow } from "./feegow-store.js";
import { ourProcedures, presentProcedureMatch } from "./feegow-procedures.js";

/** Our procedure names are at most this long (procedureInputSchema). */
const MAX_NAME = 160;

export interface ImportFeegowProceduresOptions {
  db: Db;
  secretBox: SecretBox;
  connection: FeegowConnection;
  actor: Actor;
  input: z.output<typeof feegowImportInputSchema>;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now?: Date;
}

/**
 * "Importar" / "Importar todos" (procedures switch): Feegow's procedures become ours — matched by
 * an earlier import's link, else by name ignoring case, accents and spaces; a match gets Feegow's
 * price (centavos) and link, the rest are created shared. Importing again updates prices and
 * never makes a second copy: imports of one clinic run one at a time (its integration row is
 * locked) and (tenant, Feegow id) is a unique index. Audited with the counts.
 */
export async function importFeegowProcedures({
  db,
  secretBox,
  connection,
  actor,
  input,
  audit,
  now = new Date(),
}: ImportFeegowProceduresOptions): Promise<FeegowProcedureImportResult> {
  const row = await withTenant(db, actor.tenantId, (tx) => loadFeegowRow(tx, actor.tenantId));
  assertFeature(row, "procedures");
  const client = clientFor(row, secretBox, connection);
  const feegow = await client.listProcedures().catch((error: unknown) => {
    throw feegowAppError(error);
  });
  const wanted = input.ids ? new Set(input.ids) : null;

  return withTenant(db, actor.tenantId, async (tx) => {
    // One import at a time per clinic: the second waits and then sees the first one's rows.
    const locked = await loadFeegowRow(tx, actor.tenantId, true);
    assertFeature(locked, "procedures");
    const matches = matchProcedures(feegow, await ourProcedures(tx, actor.tenantId));
    let criados = 0;
    let atualizados = 0;
    let inalterados = 0;
    for (const match of matches) {
      if (wanted && !wanted.has(match.feegow.procedimento_id)) continue;
      if (match.situacao === "importado") {
        inalterados += 1;
        continue;
      }
      if (match.ours) {
        await tx
          .update(procedimentos)
          .set({
            feegow_procedimento_id: match.feegow.procedimento_id,
            valor_centavos: match.feegow.valor,
            updated_at: now,
          })
          .where(and(eq(procedimentos.tenant_id, actor.tenantId), eq(procedimentos.id, match.ours.id)));
        atualizados += 1;
      } else {
        await tx.insert(procedimentos).values({
          tenant_id: actor.tenantId,
          nome: match.feegow.nome.slice(0, MAX_NAME),
          is_private: false,
          feegow_procedimento_id: match.feegow.procedimento_id,
          valor_centavos: match.feegow.valor,
          created_by: actor.profileId,
        });
        criados += 1;
      }
    }
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "integration.feegow_procedures_imported",
        entityType: "tenant",
        entityId: actor.tenantId,
        data: { criados, atualizados, inalterados, todos: wanted === null, ids: input.ids ?? null },
      },
    );
    const items = matchProcedures(feegow, await ourProcedures(tx, actor.tenantId)).map(presentProcedureMatch);
    return { criados, atualizados, inalterados, items };
  });
}
