import { ERRORS } from "./errors.js";
import { requiredSigner } from "./signing-rules.js";

/**
 * Can this patient's document be sent for signature? The one rule the server applies when sending
 * or resending (services/signing) and the screens show before anyone tries (Novo documento, the
 * send dialog): blocking problems make the server refuse; warnings do not.
 */
export type SendProblemCode = "PATIENT_CPF_MISSING" | "GUARDIAN_MISSING" | "PATIENT_CONTACT_MISSING";

export interface SendProblem {
  code: SendProblemCode;
  message: string;
  /** The server refuses to send while this holds. */
  blocking: boolean;
}

export interface SendPatient {
  nome: string;
  cpf: string | null;
  data_nascimento: string | null;
  responsavel_nome: string | null;
  responsavel_cpf: string | null;
  email: string | null;
  telefone: string | null;
}

/** Without e-mail or phone the link cannot reach the patient: only copied, or signed on this device. */
export const CONTACT_MISSING_MESSAGE =
  "O paciente não tem e-mail nem telefone cadastrado: o link não poderá ser enviado a ele, só copiado ou assinado neste aparelho.";

const blank = (value: string | null | undefined) => !value?.trim();

/**
 * The problems of a patient record for signing, blocking first. `today` is São Paulo's YYYY-MM-DD
 * (a minor signs through their guardian, whose name and CPF must then be on the record).
 */
export function patientSendProblems(patient: SendPatient, today: string): SendProblem[] {
  const problems: SendProblem[] = [];
  const signer = requiredSigner(patient, today);
  if (signer.papel === "responsavel" && (blank(signer.nome) || blank(signer.cpf))) {
    problems.push({ code: "GUARDIAN_MISSING", message: ERRORS.GUARDIAN_MISSING.message, blocking: true });
  } else if (blank(signer.cpf)) {
    problems.push({ code: "PATIENT_CPF_MISSING", message: ERRORS.PATIENT_CPF_MISSING.message, blocking: true });
  }
  if (blank(patient.email) && blank(patient.telefone)) {
    problems.push({ code: "PATIENT_CONTACT_MISSING", message: CONTACT_MISSING_MESSAGE, blocking: false });
  }
  return problems;
}

/** The first problem that makes the server refuse, or null. */
export function blockingSendProblem(patient: SendPatient, today: string): SendProblem | null {
  return patientSendProblems(patient, today).find((problem) => problem.blocking) ?? null;
}

/** "Enviar também por e-mail" is possible only with an e-mail on the record (else PATIENT_EMAIL_MISSING). */
export function canEmailPatient(patient: Pick<SendPatient, "email">): boolean {
  return !blank(patient.email);
}
