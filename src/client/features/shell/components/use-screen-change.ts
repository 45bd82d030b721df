import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { toast, useSonner } from "sonner";
import { useDocumentTitle } from "@/lib/use-document-title";
import { pageTitle } from "../navigation";

/** A toast raised this close before a navigation came from the action that navigated: it stays. */
const CARRIED_MS = 1500;

/**
 * On every screen change: the tab title names the screen, and the previous screen's toasts are
 * cleared (a "Paciente salvo" raised by the save that opened this screen is kept).
 */
export function useScreenChange(): void {
  const { pathname } = useLocation();
  useDocumentTitle(pageTitle(pathname));

  const { toasts } = useSonner();
  const firstSeen = useRef(new Map<string | number, number>());
  const now = Date.now();
  for (const item of toasts) if (!firstSeen.current.has(item.id)) firstSeen.current.set(item.id, now);

  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    const at = Date.now();
    for (const item of toast.getToasts()) {
      const seen = firstSeen.current.get(item.id) ?? at;
      if (at - seen > CARRIED_MS) toast.dismiss(item.id);
    }
    for (const id of firstSeen.current.keys()) if (!toast.getToasts().some((item) => item.id === id)) firstSeen.current.delete(id);
  }, [pathname]);
}
