/**
 * Whether a certificate's chain was checked up to an official ICP-Brasil root (decision 041): the
 * server compares the last certificate of the chain in the file with the AC Raiz certificates the
 * operator gave it (ICP_BRASIL_ROOTS_FILE). Three answers, and what each means to a clinic — shown
 * on the certificate's card and, when it matters, among the upload's warnings (decision 047).
 * Revocation is not checked in any of them.
 */
export const ROOT_CHECKS = ["raiz_oficial", "outra_raiz", "nao_conferida"] as const;
export type RootCheck = (typeof ROOT_CHECKS)[number];

export interface CertificateRoot {
  conferencia: RootCheck;
  /** The official root's common name, when the chain ends at one. */
  nome: string | null;
}

/** `officialRoot`: the root the chain ends at, or null; `rootsKnown`: whether the server has the official roots at all. */
export function certificateRoot(officialRoot: string | null, rootsKnown: boolean): CertificateRoot {
  if (officialRoot) return { conferencia: "raiz_oficial", nome: officialRoot };
  return { conferencia: rootsKnown ? "outra_raiz" : "nao_conferida", nome: null };
}

/** The card's line ('Cadeia'). */
export function rootCheckLine(root: CertificateRoot): string {
  switch (root.conferencia) {
    case "raiz_oficial":
      return `Conferida até a raiz oficial da ICP-Brasil “${root.nome ?? ""}”`;
    case "outra_raiz":
      return "Não termina numa raiz oficial da ICP-Brasil conhecida por este servidor";
    case "nao_conferida":
      return "Não conferida: este servidor não recebeu as raízes oficiais do ITI";
  }
}

/**
 * The upload's warning, for a certificate that presents itself as ICP-Brasil while its chain ends
 * at a root that is none of the official ones the server knows: the wrong file, or a CA that is not
 * accredited — something the clinic can act on. None when the root was confirmed, when the server
 * has no official roots to compare with (a setting of the server, said on the card), or when the
 * certificate does not claim ICP-Brasil at all (another warning says that).
 */
export function rootCheckWarning(root: CertificateRoot, presentsAsIcpBrasil: boolean): string | null {
  if (!presentsAsIcpBrasil || root.conferencia !== "outra_raiz") return null;
  return "A cadeia deste certificado não termina numa das raízes oficiais da ICP-Brasil que este servidor conhece: os PDFs selados com ele dirão que a cadeia não foi conferida. Confira se é o arquivo certo, emitido por uma autoridade certificadora credenciada.";
}
