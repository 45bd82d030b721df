/**
 * What an ICP-Brasil AD-RC or AD-RA declaration promises, checked against the file (decision 081):
 * the signature's own time-stamp, its /VRI in the DSS with revocation values (lists or OCSP), and a
 * valid document time-stamp after it. Shared by the server's verifier and the browser's (077).
 */
import type { EvidenceLine } from "./optional-consent-lines.js";

/** The PAdES policies of DOC-ICP-15.03 a verifier names (the server's table adds the hashes). */
export const ICP_BRASIL_PADES_POLICY_NAMES: readonly { oid: string; name: string; kind: string }[] = [
  { oid: "2.16.76.1.7.1.11.1.3", name: "PA_PAdES_AD_RB_v1_3", kind: "AD-RB" },
  { oid: "2.16.76.1.7.1.12.1.3", name: "PA_PAdES_AD_RT_v1_3", kind: "AD-RT" },
  { oid: "2.16.76.1.7.1.13.1.4", name: "PA_PAdES_AD_RC_v1_4", kind: "AD-RC" },
  { oid: "2.16.76.1.7.1.14.1.4", name: "PA_PAdES_AD_RA_v1_4", kind: "AD-RA" },
];

export interface PolicySignature {
  kind: "assinatura" | "carimbo_documento";
  policyOid: string | null | undefined;
  /** Carries its own signature time-stamp. */
  timestamped: boolean;
  valid: boolean;
}

export function policyPromiseLines(
  signatures: readonly PolicySignature[],
  /** The revocation values the /VRI of signature `index` names, or undefined when it has none. */
  vriOf: (index: number) => { crls: number; ocsps: number } | undefined,
): EvidenceLine[] {
  const lines: EvidenceLine[] = [];
  signatures.forEach((signature, index) => {
    const policy = ICP_BRASIL_PADES_POLICY_NAMES.find((p) => p.oid === signature.policyOid);
    if (signature.kind === "carimbo_documento" || (policy?.kind !== "AD-RC" && policy?.kind !== "AD-RA")) return;
    const vri = vriOf(index);
    const stamped = signatures.some((s, i) => i > index && s.kind === "carimbo_documento" && s.valid);
    const missing = [
      ...(signature.timestamped ? [] : ["o carimbo do tempo da assinatura"]),
      ...(vri ? [] : ["a entrada VRI no DSS"]),
      ...(vri && vri.crls + vri.ocsps === 0 ? ["as listas de revogação na entrada VRI"] : []),
      ...(stamped ? [] : ["um carimbo do tempo do documento válido depois dela"]),
    ];
    lines.push({
      ok: missing.length === 0,
      text:
        missing.length === 0
          ? `Assinatura ${index + 1}: a política ${policy.name} pede carimbo do tempo, cadeia e listas de revogação no arquivo (DSS/VRI) e carimbo do tempo do documento — presentes.`
          : `Assinatura ${index + 1}: declara a política ${policy.name}, mas falta ${missing.join(", ")}.`,
    });
    if (policy.kind === "AD-RA")
      lines.push({
        ok: null,
        text: `Assinatura ${index + 1}: os artefatos da política AD-RA (política, LPA e assinatura da LPA no DSS) não são conferidos por este verificador; use o verificador do ITI.`,
      });
  });
  return lines;
}
