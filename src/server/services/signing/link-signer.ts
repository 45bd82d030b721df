import { and, eq } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { contratoPartes } from "../../../db/schema.js";
import { dateInSaoPaulo } from "../../../shared/dates/sao-paulo.js";
import { requiredSigner, signerContacts, WITNESS_CAPACITY } from "../../../shared/signing-rules.js";
import { aRogoCapacity, type ARogoMotivo, aRogoOf } from "../../../shared/schemas/a-rogo.js";
import { findWitness } from "../witnesses/witness-rows.js";
import { loadSignerRecord } from "./signer-record.js";
import type { SigningTokenRow } from "./signing-tokens.js";

/**
 * Who signs through one link (decision 021): the patient's link belongs to the patient or their
 * legal guardian (requiredSigner); a witness's link to that witness. The name and CPF typed are
 * checked against these, and the code goes only to these contacts.
 */
export interface LinkSigner {
  papel: "paciente" | "responsavel" | "testemunha";
  /** 1, or the witness's number (1 or 2). */
  ordem: number;
  nome: string;
  cpf: string | null;
  /** Printed with the signature: "responsável legal de …", "testemunha", or null. */
  qualidade: string | null;
  email: string | null;
  telefone: string | null;
  /** Whose contacts `email`/`telefone` are: the witness's, the guardian's own, or the patient's record. */
  titular: "paciente" | "responsavel" | "testemunha";
  /** The witness row (null on the patient's link). */
  testemunhaId: string | null;
  /** Signed "a rogo" (decision 070): at whose request (the patient or guardian who cannot sign), and why. */
  aRogo: { de: string; motivo: ARogoMotivo } | null;
}

export type SignerRecord = NonNullable<Awaited<ReturnType<typeof loadSignerRecord>>>;

export interface LoadLinkSignerOptions {
  tx: Tx;
  tenantId: string;
  link: Pick<SigningTokenRow, "testemunhaId">;
  document: { id: string; paciente_id: string; a_rogo: unknown };
  now: Date;
}

/** The link's signer and the patient of the document; null when either is gone (the link is then invalid). */
export async function loadLinkSigner({
  tx,
  tenantId,
  link,
  document,
  now,
}: LoadLinkSignerOptions): Promise<{ signer: LinkSigner; patient: SignerRecord } | null> {
  const patient = await loadSignerRecord(tx, tenantId, document.paciente_id);
  const witness = link.testemunhaId ? await findWitness(tx, tenantId, document.id, link.testemunhaId) : undefined;
  return linkSignerOf({
    link,
    patient: patient ?? null,
    witnesses: witness ? [witness] : [],
    now,
    aRogoStored: document.a_rogo,
  });
}

export interface LinkSignerOfOptions {
  link: Pick<SigningTokenRow, "testemunhaId">;
  patient: SignerRecord | null;
  witnesses: readonly {
    id: string;
    ordem: number;
    nome: string;
    cpf: string;
    email: string | null;
    telefone: string | null;
  }[];
  now: Date;
  aRogoStored: unknown;
}

/**
 * Who signs through this link, on rows already read (loadLinkContext, or loadLinkSigner's):
 * `witnesses` are the document's named witnesses, the link's found among them by id. On a document
 * signed "a rogo" (decision 070) the patient's link belongs to the person named to sign at the
 * patient's (or guardian's) request: their name and CPF are checked, printed "a rogo de …"; the
 * code still goes to the patient's record, as the patient is there.
 */
export function linkSignerOf({
  link,
  patient,
  witnesses,
  now,
  aRogoStored,
}: LinkSignerOfOptions): { signer: LinkSigner; patient: SignerRecord } | null {
  if (!patient) return null;
  if (link.testemunhaId) {
    const witness = witnesses.find((row) => row.id === link.testemunhaId);
    if (!witness) return null;
    return {
      patient,
      signer: {
        papel: "testemunha",
        ordem: witness.ordem,
        nome: witness.nome,
        cpf: witness.cpf,
        qualidade: WITNESS_CAPACITY,
        email: witness.email,
        telefone: witness.telefone,
        titular: "testemunha",
        testemunhaId: witness.id,
        aRogo: null,
      },
    };
  }
  const today = dateInSaoPaulo(now);
  const signer = requiredSigner(patient, today);
  // The guardian's own contacts when they sign and the record has them; else the patient's record.
  const contacts = signerContacts(patient, today);
  const aRogo = aRogoOf(aRogoStored);
  if (aRogo) {
    return {
      patient,
      signer: {
        papel: signer.papel,
        ordem: 1,
        nome: aRogo.nome,
        cpf: aRogo.cpf,
        qualidade: aRogoCapacity(signer.nome, signer.qualidade),
        ...contacts,
        testemunhaId: null,
        aRogo: { de: signer.nome, motivo: aRogo.motivo },
      },
    };
  }
  return { patient, signer: { ...signer, ordem: 1, ...contacts, testemunhaId: null, aRogo: null } };
}

/** hasSigned on the parties already read (loadLinkContext). */
export function signedAmong(
  parties: readonly { papel: string; ordem: number }[],
  signer: Pick<LinkSigner, "papel" | "ordem">,
): boolean {
  return signer.papel === "testemunha"
    ? parties.some((party) => party.papel === "testemunha" && party.ordem === signer.ordem)
    : parties.some((party) => party.papel === "paciente" || party.papel === "responsavel");
}

/** Has this link's signer already signed the document? (The patient's link: the patient or the guardian.) */
export async function hasSigned(
  tx: Tx,
  tenantId: string,
  contratoId: string,
  signer: Pick<LinkSigner, "papel" | "ordem">,
): Promise<boolean> {
  const parties = await tx
    .select({ papel: contratoPartes.papel, ordem: contratoPartes.ordem })
    .from(contratoPartes)
    .where(and(eq(contratoPartes.tenant_id, tenantId), eq(contratoPartes.contrato_id, contratoId)));
  return signer.papel === "testemunha"
    ? parties.some((party) => party.papel === "testemunha" && party.ordem === signer.ordem)
    : parties.some((party) => party.papel === "paciente" || party.papel === "responsavel");
}
