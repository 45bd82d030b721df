import type * as React from "react";
import { Toaster as Sonner, type ToasterProps } from "sonner";

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
  );
}

export default Toaster;
