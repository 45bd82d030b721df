import type * as React from "react";
import { Toaster as Sonner, toast, type ToasterProps, useSonner } from "sonner";

/** A toast raised this close before a navigation came from the action that navigated: it stays. */
const CARRIED_MS = 1500;
const firstSeen = new Map<string | number, number>();

/** Records when each toast first appeared (rendered beside the toaster). */
function ToastAges() {
  const { toasts } = useSonner();
  const now = Date.now();
  for (const item of toasts) if (!firstSeen.has(item.id)) firstSeen.set(item.id, now);
  for (const id of firstSeen.keys()) if (!toasts.some((item) => item.id === id)) firstSeen.delete(id);
  return null;
}

/** Dismisses the toasts of the previous screen; one raised just before the navigation stays. */
export function dismissStaleToasts(at = Date.now()): void {
  for (const item of toast.getToasts()) {
    const seen = firstSeen.get(item.id) ?? at;
    if (at - seen > CARRIED_MS) toast.dismiss(item.id);
  }
}

/**
 * Contêiner de notificações (sonner), loaded after the first paint by ./sonner.tsx. Monte uma única vez perto da raiz do app
 * e dispare notificações com `toast.success("...")`, `toast.error("...")` etc.
 *
 * At the bottom (never over the header's buttons), above the phone's bottom bar
 * (--toast-offset-bottom in globals.css); rich colours darkened to ≥ 4.5:1 (WCAG AA).
 * The app shell clears them on screen change (use-screen-change.ts).
 */
function Toaster({ toastOptions, style, ...props }: ToasterProps) {
  return (
    <>
      <ToastAges />
      <Sonner
        theme="light"
        position="bottom-right"
        offset={{ bottom: "var(--toast-offset-bottom)" }}
        mobileOffset={{ bottom: "var(--toast-offset-bottom)" }}
        richColors
        closeButton
        containerAriaLabel="Notificações"
        className="toaster group"
        toastOptions={{
          closeButtonAriaLabel: "Fechar notificação",
          ...toastOptions,
        }}
        style={
          {
            "--normal-bg": "var(--popover)",
            "--normal-text": "var(--popover-foreground)",
            "--normal-border": "var(--border)",
            "--border-radius": "var(--radius)",
            "--success-text": "hsl(140, 100%, 22%)",
            "--info-text": "hsl(210, 92%, 38%)",
            "--warning-text": "hsl(31, 92%, 32%)",
            "--error-text": "hsl(360, 100%, 38%)",
            ...style,
          } as React.CSSProperties
        }
        {...props}
      />
    </>
  );
}

export default Toaster;
