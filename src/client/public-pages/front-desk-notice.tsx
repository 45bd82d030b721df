import { Lock } from "lucide-react";
import { buttonClasses, Notice } from "./components/public-shell";

/** `?balcao=1`: the page was opened by "Assinar neste aparelho" on the clinic's device. */
export const isFrontDesk = () => new URLSearchParams(window.location.search).get("balcao") === "1";

/**
 * Front-desk signing: before signing, the signer is told the device is the clinic's; after, the
 * page asks them to hand it back, and the staff member unlocks it with their own password.
 */
export function FrontDeskNotice({ signed }: { signed: boolean }) {
  if (!signed) {
    return (
      <Notice tone="info" title="Assinatura presencial" data-testid="front-desk-notice">
        Este aparelho é da clínica. Leia o documento, assine e, ao terminar, devolva-o à equipe.
      </Notice>
    );
  }
  return (
    <Notice tone="success" title="Pronto! Devolva o aparelho à equipe da clínica" data-testid="front-desk-done">
      <p>O sistema da clínica continua bloqueado até alguém da equipe digitar a própria senha.</p>
      <a href="/desbloquear" className={buttonClasses("outline", "mt-2")}>
        <Lock aria-hidden /> Desbloquear (equipe)
      </a>
    </Notice>
  );
}
