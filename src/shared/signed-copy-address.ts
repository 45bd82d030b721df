/**
 * Where a signer's copy of the sealed PDF goes (decision 045). The PDF is health data (LGPD art. 11):
 * it goes to the address the clinic has on record for that signer — the one the link and the code
 * went to — and not to an address typed on the signing page that differs from it, which nothing has
 * checked (a typo would send a patient's term to a stranger). Only when the clinic has no address
 * for the signer is the typed one used: it is then the only one there is, given by the signer for
 * this purpose.
 */
export type CopyAddressSource = "cadastro" | "digitado";

export interface CopyAddress {
  to: string;
  source: CopyAddressSource;
  /** The typed address differed from the one on record, and was not used. */
  typedDiffers: boolean;
}

const normalized = (address: string | null | undefined): string => (address ?? "").trim().toLowerCase();

export function signedCopyAddress(
  typed: string | null | undefined,
  onRecord: string | null | undefined,
): CopyAddress | null {
  const recorded = normalized(onRecord);
  const given = normalized(typed);
  if (recorded) return { to: recorded, source: "cadastro", typedDiffers: given !== "" && given !== recorded };
  if (given) return { to: given, source: "digitado", typedDiffers: false };
  return null;
}
