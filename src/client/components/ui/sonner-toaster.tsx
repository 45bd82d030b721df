import type * as React from "react";
import { Toaster as Sonner, type ToasterProps } from "sonner";

/**
 * Contêiner de notificações (sonner), loaded after the first paint by ./sonner.tsx. Monte uma única vez perto da raiz do app
 * e dispare notificações com `toast.success("...")`, `toast.error("...")` etc.
 */
function Toaster({ toastOptions, style, ...props }: ToasterProps) {
  return (
    <Sonner
      theme="light"
      position="top-right"
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
          ...style,
        } as React.CSSProperties
      }
      {...props}
    />
  );
}

export default Toaster;
