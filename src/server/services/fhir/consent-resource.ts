/**
 * A document as an HL7 FHIR R4 `Consent` (decision 063). Pure: the caller loads the rows; this
 * only decides what maps where. Validated in tests against the official R4 JSON schema.
 */
import type { DocumentStatus } from "../../../shared/schemas/document-basics.js";

/** The CPF as RNDS names it in `Identifier.system` (Patient, Practitioner, RelatedPerson). */
export const RNDS_CPF_SYSTEM = "https://rnds-fhir.saude.gov.br/NamingSystem/cpf";
export const RNDS_CNPJ_SYSTEM = "https://rnds-fhir.saude.gov.br/NamingSystem/cnpj";
export const RNDS_CNES_SYSTEM = "https://rnds-fhir.saude.gov.br/NamingSystem/cnes";
const V2_0203 = "http://terminology.hl7.org/CodeSystem/v2-0203";
const CONSENT_SCOPE = "http://terminology.hl7.org/CodeSystem/consentscope";
const ACT_CODE = "http://terminology.hl7.org/CodeSystem/v3-ActCode";

/** The paths under the instance's origin that name this instance's own codes and extensions. */
export function fhirDefinitions(origin: string) {
  const base = `${origin}/api/fhir`;
  return {
    situacao: `${base}/StructureDefinition/situacao-documento`,
    sha256: `${base}/StructureDefinition/sha256`,
    conteudoSha256: `${base}/StructureDefinition/conteudo-sha256`,
    optionalConsent: `${base}/CodeSystem/consentimento-opcional`,
    documentId: `${base}/NamingSystem/documento`,
    verificationCode: `${base}/NamingSystem/codigo-verificacao`,
    error: `${base}/CodeSystem/erro`,
  };
}

export interface ConsentSource {
  id: string;
  titulo: string;
  status: DocumentStatus;
  created_at: Date;
  signed_at: Date | null;
  recusado_at: Date | null;
  revogado_at: Date | null;
  updated_at: Date;
  conteudo_sha256: string;
  verification_code: string | null;
  patient: {
    id: string;
    nome: string;
    cpf: string | null;
    data_nascimento: string | null;
    sexo: string | null;
  };
  /** The guardian who signed in their own name, when the link signer was one. */
  guardian: { nome: string; cpf: string } | null;
  physician: {
    id: string;
    nome: string;
    cpf: string;
    conselho_tipo: string | null;
    conselho_numero: string | null;
    conselho_uf: string | null;
  } | null;
  clinic: { id: string; nome: string; cnpj: string | null; cnes: string | null };
  /** The sealed PDF, once the finalize job made it. */
  sealed: { nome: string; size: number; sha1Base64: string; sha256: string; created_at: Date } | null;
  /** The signer's Sim/Não to each optional consent (decision 057), in the order offered. */
  optional: { id: string; titulo: string; aceito: boolean }[];
}

type Json = Record<string, unknown>;

/** Consent.status of a document (decision 063). */
export function consentStatus(status: DocumentStatus, revoked: boolean): string {
  switch (status) {
    case "draft":
      return "draft";
    case "sent":
    case "viewed":
      return "proposed";
    case "signed":
      return revoked ? "inactive" : "active";
    case "recusado":
      return "rejected";
    // Withdrawn by the clinic, or closed unanswered: terminated without ever being in force.
    case "cancelled":
    case "expired":
      return "inactive";
  }
}

const GENDER: Record<string, string> = {
  masculino: "male",
  feminino: "female",
  outro: "other",
  nao_informado: "unknown",
};
const cpfIdentifier = (cpf: string) => ({
  use: "official",
  type: { coding: [{ system: V2_0203, code: "TAX" }], text: "CPF" },
  system: RNDS_CPF_SYSTEM,
  value: cpf.replace(/\D/g, ""),
});

export function consentResource(source: ConsentSource, origin: string): Json {
  const defs = fhirDefinitions(origin);
  const revoked = source.revogado_at !== null;
  const contained: Json[] = [];

  const patient: Json = {
    resourceType: "Patient",
    id: "paciente",
    ...(source.patient.cpf ? { identifier: [cpfIdentifier(source.patient.cpf)] } : {}),
    name: [{ use: "official", text: source.patient.nome }],
    ...(source.patient.sexo && GENDER[source.patient.sexo] ? { gender: GENDER[source.patient.sexo] } : {}),
    ...(source.patient.data_nascimento ? { birthDate: source.patient.data_nascimento } : {}),
  };
  contained.push(patient);
  const performer: Json[] = [];
  if (source.guardian) {
    contained.push({
      resourceType: "RelatedPerson",
      id: "responsavel",
      identifier: [cpfIdentifier(source.guardian.cpf)],
      patient: { reference: "#paciente" },
      relationship: [
        {
          coding: [{ system: "http://terminology.hl7.org/CodeSystem/v3-RoleCode", code: "GUARD", display: "guardian" }],
          text: "Responsável legal",
        },
      ],
      name: [{ text: source.guardian.nome }],
    });
    performer.push({ reference: "#responsavel", display: source.guardian.nome });
  } else {
    performer.push({ reference: "#paciente", display: source.patient.nome });
  }
  if (source.physician) {
    const council = source.physician.conselho_tipo && source.physician.conselho_numero;
    contained.push({
      resourceType: "Practitioner",
      id: "profissional",
      identifier: [cpfIdentifier(source.physician.cpf)],
      name: [{ text: source.physician.nome }],
      ...(council
        ? {
            qualification: [
              {
                identifier: [
                  {
                    value:
                      `${source.physician.conselho_tipo}/${source.physician.conselho_uf ?? ""} ${source.physician.conselho_numero}`.replace(
                        "/ ",
                        " ",
                      ),
                  },
                ],
                code: { text: source.physician.conselho_tipo! },
              },
            ],
          }
        : {}),
    });
    performer.push({ reference: "#profissional", display: source.physician.nome });
  }
  const clinicIds = [
    ...(source.clinic.cnpj ? [{ system: RNDS_CNPJ_SYSTEM, value: source.clinic.cnpj.replace(/\D/g, "") }] : []),
    ...(source.clinic.cnes ? [{ system: RNDS_CNES_SYSTEM, value: source.clinic.cnes }] : []),
  ];
  contained.push({
    resourceType: "Organization",
    id: "clinica",
    ...(clinicIds.length ? { identifier: clinicIds } : {}),
    name: source.clinic.nome,
  });

  // When the patient answered (signed or refused), else when the document was made.
  const answeredAt = source.signed_at ?? source.recusado_at ?? source.created_at;
  const resource: Json = {
    resourceType: "Consent",
    id: source.id,
    meta: { lastUpdated: source.updated_at.toISOString() },
    language: "pt-BR",
    text: {
      status: "generated",
      div: `<div xmlns="http://www.w3.org/1999/xhtml"><p>${escapeXhtml(source.titulo)}</p></div>`,
    },
    contained,
    extension: [
      { url: defs.situacao, valueCode: source.status },
      { url: defs.conteudoSha256, valueString: source.conteudo_sha256 },
    ],
    identifier: [
      { system: defs.documentId, value: source.id },
      ...(source.verification_code ? [{ system: defs.verificationCode, value: source.verification_code }] : []),
    ],
    status: consentStatus(source.status, revoked),
    scope: { coding: [{ system: CONSENT_SCOPE, code: "treatment", display: "Treatment" }] },
    category: [
      { coding: [{ system: "http://loinc.org", code: "59284-0", display: "Patient Consent" }], text: source.titulo },
    ],
    patient: { reference: "#paciente", display: source.patient.nome },
    dateTime: answeredAt.toISOString(),
    performer,
    organization: [{ reference: "#clinica", display: source.clinic.nome }],
    ...(source.sealed
      ? {
          sourceAttachment: {
            extension: [{ url: defs.sha256, valueString: source.sealed.sha256 }],
            contentType: "application/pdf",
            language: "pt-BR",
            url: `${origin}/api/documents/${source.id}/signed-pdf`,
            size: source.sealed.size,
            hash: source.sealed.sha1Base64,
            title: source.sealed.nome,
            creation: source.sealed.created_at.toISOString(),
          },
        }
      : {}),
    // R4 wants a policy or a rule (ppc-1): the patient opts in to what the term describes.
    policyRule: { coding: [{ system: ACT_CODE, code: "OPTIN", display: "opt-in" }] },
  };
  const provision = consentProvision(source, defs.optionalConsent);
  if (provision) resource.provision = provision;
  return resource;
}

/**
 * The base rule permits what the term describes while it is in force (from the signature to the
 * revocation); each optional consent the signer answered is a nested permit (Sim) or deny (Não).
 */
function consentProvision(source: ConsentSource, optionalSystem: string): Json | null {
  const nested = source.optional.map((answer) => ({
    type: answer.aceito ? "permit" : "deny",
    code: [
      {
        coding: [{ system: optionalSystem, code: answer.id, display: answer.titulo }],
        text: answer.titulo,
      },
    ],
  }));
  if (source.status === "signed" && source.signed_at) {
    return {
      type: "permit",
      period: {
        start: source.signed_at.toISOString(),
        ...(source.revogado_at ? { end: source.revogado_at.toISOString() } : {}),
      },
      ...(nested.length ? { provision: nested } : {}),
    };
  }
  if (source.status === "recusado") return { type: "deny" };
  return null;
}

function escapeXhtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
