import type * as React from "react";
import { cn } from "@/lib/utils";

export const MAIN_CONTENT_ID = "conteudo";

/**
 * "Pular para o conteúdo": the first focusable element of a screen. Hidden until focused;
 * Enter moves focus into <main id="conteudo" tabIndex={-1}> (no hash change, so the router
 * is left alone).
 */
function SkipLink({
  className,
  targetId = MAIN_CONTENT_ID,
  ...props
}: React.ComponentProps<"a"> & { targetId?: string }) {
  return (
    <a
      href={`#${targetId}`}
      data-slot="skip-link"
      className={cn(
        "sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[100] focus:rounded-md focus:bg-primary focus:px-4 focus:py-2 focus:text-sm focus:font-medium focus:text-primary-foreground focus:shadow-lg focus:outline-none focus:ring-[3px] focus:ring-ring/50",
        className,
      )}
      onClick={(event) => {
        const target = document.getElementById(targetId);
        if (!target) return;
        event.preventDefault();
        target.focus();
        target.scrollIntoView({ block: "start" });
      }}
      {...props}
    >
      Pular para o conteúdo
    </a>
  );
}

export { SkipLink };
