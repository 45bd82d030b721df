import { useSyncExternalStore } from "react";
import { busyWaits } from "../lib/busy-retry";
import { Spinner } from "./spinner";

/**
 * While a call waits to try again because the server is busy (decision 040): the patient is told
 * to wait and that nothing needs doing, in a bar at the bottom of the screen (seen wherever the
 * page is scrolled to). The live region stays in the page so the message is read out when it appears.
 */
export function BusyNotice() {
  const busy = useSyncExternalStore(busyWaits.subscribe, busyWaits.active, busyWaits.active);
  return (
    <div
      role="status"
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 bottom-0 z-50 px-3 pb-3 print:hidden"
      data-testid="busy-notice"
    >
      {busy ? (
        <div className="mx-auto flex max-w-3xl items-start gap-3 rounded-lg border border-primary/30 bg-background px-4 py-3 text-sm shadow-lg">
          <span aria-hidden="true" className="mt-0.5 text-primary">
            <Spinner label="Aguardando" />
          </span>
          <div className="grid gap-0.5">
            <p className="font-semibold">Muitas pessoas estão usando o sistema agora</p>
            <p className="text-muted-foreground">
              Aguarde um instante: tentamos de novo sozinhos. Não é preciso recarregar a página.
            </p>
          </div>
        </div>
      ) : null}
    </div>
  );
}
