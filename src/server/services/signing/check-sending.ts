import type { Db } from "../../../db/client.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { dateInSaoPaulo } from "../../../shared/dates/sao-paulo.js";
import { ERRORS } from "../../../shared/errors.js";
import { effectiveStatus } from "../../../shared/schemas/document.js";
import type { SendCheck } from "../../../shared/schemas/signing.js";
import { canEmailPatient, patientSendProblems } from "../../../shared/send-readiness.js";
import type { Actor } from "../../policies/roles.js";
import { findDocumentOrThrow } from "../documents/find-document.js";
import { signedRoles } from "./complete-document.js";
import { loadSendPatient } from "./send-checks.js";
import { professionalOrder } from "./signing-settings.js";
import { loadLinkRecipients } from "./signing-link.js";
import { isMobilePhone } from "../../../shared/br/phone.js";
import { selectWitnesses } from "../witnesses/witness-rows.js";
import { A_ROGO_WITNESSES, aRogoOf } from "../../../shared/schemas/a-rogo.js";

type Problem = SendCheck["problemas"][number];
const refusal = (codigo: keyof typeof ERRORS): Problem => ({
  codigo,
  mensagem: ERRORS[codigo].message,
  bloqueia: true,
});

/**
 * What Enviar or Reenviar would meet, without doing it: the same checks, in the same order, as
 * sendDocument and resendDocument, so the dialog can say why before the user presses the button.
 */
export async function checkSending(db: Db, actor: Actor, id: string, now = new Date()): Promise<SendCheck> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const document = await findDocumentOrThrow(tx, actor.tenantId, id);
    const status = effectiveStatus(document.status, document.expiracao_at, now);
    const modo =
      status === "draft" ? "send" : status === "sent" || status === "viewed" || status === "expired" ? "resend" : null;
    const problemas: Problem[] = [];
    if (status === "signed") problemas.push(refusal("DOCUMENT_LOCKED"));
    else if (modo === null) problemas.push(refusal("DOCUMENT_NOT_RESENDABLE"));
    const patient = await loadSendPatient(tx, actor.tenantId, document.paciente_id);
    if (!patient) problemas.push(refusal("PATIENT_CPF_MISSING"));
    else {
      for (const problem of patientSendProblems(patient, dateInSaoPaulo(now))) {
        problemas.push({ codigo: problem.code, mensagem: problem.message, bloqueia: problem.blocking });
      }
    }
    if (
      modo === "send" &&
      document.medico_responsavel_id &&
      (await professionalOrder(tx, actor.tenantId)) === "antes_do_envio" &&
      !(await signedRoles(tx, actor.tenantId, id)).includes("profissional")
    ) {
      problemas.push(refusal("PROFESSIONAL_SIGNATURE_MISSING"));
    }
    const aRogo = aRogoOf(document.a_rogo);
    if (modo === "send" && aRogo && (await selectWitnesses(tx, actor.tenantId, id)).length < A_ROGO_WITNESSES)
      problemas.push(refusal("A_ROGO_WITNESSES_MISSING"));
    problemas.sort((a, b) => Number(b.bloqueia) - Number(a.bloqueia));
    return {
      modo,
      paciente_id: document.paciente_id,
      problemas,
      // Decision 070: an "a rogo" patient signs at the front desk; no link goes to them.
      email_possivel: patient && !aRogo ? canEmailPatient(patient) : false,
      // Decision 066: the mobile the link's SMS would go to (the guardian's own when they sign with it).
      celular_possivel:
        patient && !aRogo
          ? isMobilePhone((await loadLinkRecipients(tx, actor.tenantId, document.paciente_id, now)).patient.telefone)
          : false,
      a_rogo: aRogo !== null,
      novo_prazo: status === "expired",
    };
  });
}
