import { useEffect } from "react";

export const APP_NAME = "Consentir";

/** "Pacientes · Consentir": the screen first, so a tab or a screen reader names the page. */
export function documentTitleFor(screen: string | null | undefined): string {
  return screen && screen !== APP_NAME ? `${screen} · ${APP_NAME}` : APP_NAME;
}

/** Sets `document.title` for the screen on show (the one place titles are written). */
export function useDocumentTitle(screen: string | null | undefined): void {
  useEffect(() => {
    document.title = documentTitleFor(screen);
  }, [screen]);
}
