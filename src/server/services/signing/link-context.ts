import { and, eq, getTableColumns, sql } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import {
  clinicLogos,
  contratoPartes,
  contratos,
  contratoTestemunhas,
  pacientes,
  profiles,
  signingTokens,
  tenants,
} from "../../../db/schema.js";
import { AppError } from "../../errors.js";
import type { SigningTokenRow } from "./signing-tokens.js";

/** A party that has signed the document, as the public routes need it (order of signing). */
export interface SignedParty {
  id: string;
  papel: string;
  ordem: number;
  assinou_em: Date;
}

/** A witness named on the document (the fields a witness's link signs with). */
export interface NamedWitness {
  id: string;
  ordem: number;
  nome: string;
  cpf: string;
  email: string | null;
  telefone: string | null;
}

/**
 * Everything the public signing routes read about a link before they act, in ONE statement
 * (decision 073; it was five to eight): the document, the patient's record, the link as it is now
 * (expiry, revocation), the parties that signed (in the order they signed), the named witnesses,
 * the clinic's name, logo and code setting, and the responsible professional's name. Read inside
 * the tenant's transaction (row-level security applies to every table of it). With `lock`, the
 * document row is locked FOR UPDATE first, in its own statement, so this read runs after the lock
 * is granted and sees what the transaction that held it committed (a signature, a resend).
 */
export async function loadLinkContext(tx: Tx, link: SigningTokenRow, options: { lock?: boolean } = {}) {
  const ofDocument = and(eq(contratos.tenant_id, link.tenantId), eq(contratos.id, link.contratoId));
  if (options.lock) {
    const [locked] = await tx.select({ id: contratos.id }).from(contratos).where(ofDocument).limit(1).for("update");
    if (!locked) throw new AppError("SIGNING_LINK_INVALID");
  }
  const [row] = await tx
    .select({
      document: getTableColumns(contratos),
      patient: {
        nome: pacientes.nome,
        cpf: pacientes.cpf,
        email: pacientes.email,
        telefone: pacientes.telefone,
        data_nascimento: pacientes.data_nascimento,
        responsavel_nome: pacientes.responsavel_nome,
        responsavel_cpf: pacientes.responsavel_cpf,
        responsavel_email: pacientes.responsavel_email,
        responsavel_telefone: pacientes.responsavel_telefone,
      },
      tokenExpiresAt: sql<Date | null>`(select ${signingTokens.expires_at} from ${signingTokens}
        where ${signingTokens.tenant_id} = ${contratos.tenant_id} and ${signingTokens.id} = ${link.id})`.mapWith(
        signingTokens.expires_at,
      ),
      tokenRevokedAt: sql<Date | null>`(select ${signingTokens.revoked_at} from ${signingTokens}
        where ${signingTokens.tenant_id} = ${contratos.tenant_id} and ${signingTokens.id} = ${link.id})`.mapWith(
        signingTokens.revoked_at,
      ),
      tokenFound: sql<boolean>`exists (select 1 from ${signingTokens}
        where ${signingTokens.tenant_id} = ${contratos.tenant_id} and ${signingTokens.id} = ${link.id})`,
      parties: sql<{ id: string; papel: string; ordem: number; assinou_em: string }[]>`coalesce((
        select json_agg(json_build_object('id', p.id, 'papel', p.papel, 'ordem', p.ordem, 'assinou_em', p.assinou_em)
          order by p.assinou_em, p.id)
        from ${contratoPartes} p where p.tenant_id = ${contratos.tenant_id} and p.contrato_id = ${contratos.id}), '[]'::json)`,
      witnesses: sql<NamedWitness[]>`coalesce((
        select json_agg(json_build_object('id', w.id, 'ordem', w.ordem, 'nome', w.nome, 'cpf', w.cpf,
          'email', w.email, 'telefone', w.telefone) order by w.ordem)
        from ${contratoTestemunhas} w where w.tenant_id = ${contratos.tenant_id} and w.contrato_id = ${contratos.id}), '[]'::json)`,
      settings: tenants.settings,
      clinicNome: tenants.nome,
      clinicNomeFantasia: tenants.nome_fantasia,
      logoSha256: clinicLogos.sha256,
      physicianNome: profiles.nome,
    })
    .from(contratos)
    .leftJoin(pacientes, and(eq(pacientes.tenant_id, contratos.tenant_id), eq(pacientes.id, contratos.paciente_id)))
    .leftJoin(tenants, eq(tenants.id, contratos.tenant_id))
    .leftJoin(clinicLogos, eq(clinicLogos.tenant_id, contratos.tenant_id))
    .leftJoin(
      profiles,
      and(eq(profiles.tenant_id, contratos.tenant_id), eq(profiles.id, contratos.medico_responsavel_id)),
    )
    .where(ofDocument)
    .limit(1);
  if (!row || !row.tokenFound) throw new AppError("SIGNING_LINK_INVALID");
  const parties: SignedParty[] = row.parties.map((party) => ({ ...party, assinou_em: new Date(party.assinou_em) }));
  return {
    document: row.document,
    /** Null when the record is gone (the link is then invalid). */
    patient: row.patient,
    /** The link as it is now (a resend may have revoked it since the token was looked up). */
    token: { expiresAt: row.tokenExpiresAt ?? link.expiresAt, revokedAt: row.tokenRevokedAt },
    parties,
    witnesses: row.witnesses,
    /** tenants.settings.assinatura.codigo_email: on unless the clinic turned it off (requiresEmailCode). */
    codeSetting: row.settings?.assinatura?.codigo_email !== false,
    clinic: { nome: row.clinicNome, nome_fantasia: row.clinicNomeFantasia, logo_sha256: row.logoSha256 },
    physicianNome: row.physicianNome,
  };
}
export type LinkContext = Awaited<ReturnType<typeof loadLinkContext>>;
