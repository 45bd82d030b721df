/**
 * ICP-Brasil time-stamp policies (decision 078): every accredited ACT registers its Política de
 * Carimbo do Tempo (PCT) under the arc 2.16.76.1.6 (DOC-ICP-04.01, Atribuição de OID na
 * ICP-Brasil), and states it in each token's TSTInfo.policy. A token whose policy is outside that
 * arc was not issued under an ICP-Brasil PCT, whatever chain its certificate has.
 */
export const ICP_BRASIL_TSA_POLICY_ARC = "2.16.76.1.6";

/** Is `policyOid` a time-stamp policy under the ICP-Brasil arc? */
export function isIcpBrasilTsaPolicy(policyOid: string | null | undefined): boolean {
  return !!policyOid && /^[0-9]+(\.[0-9]+)*$/.test(policyOid) && policyOid.startsWith(`${ICP_BRASIL_TSA_POLICY_ARC}.`);
}
