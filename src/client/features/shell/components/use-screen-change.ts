import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { useDocumentTitle } from "@/lib/use-document-title";
import { pageTitle } from "../navigation";

/**
 * On every screen change: the tab title names the screen, and the previous screen's toasts are
 * cleared (a "Paciente salvo" raised by the save that opened this screen is kept). sonner lives
 * in the toaster's own chunk (decision 033), so the clearing is asked of that chunk.
 */
export function useScreenChange(): void {
  const { pathname } = useLocation();
  useDocumentTitle(pageTitle(pathname));

  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    const at = Date.now();
    void import("@/components/ui/sonner-toaster")
      .then(({ dismissStaleToasts }) => dismissStaleToasts(at))
      .catch(() => undefined);
  }, [pathname]);
}
