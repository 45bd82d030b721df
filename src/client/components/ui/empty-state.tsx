import type * as React from "react";

import { cn } from "@/lib/utils";

type EmptyStateProps = Omit<React.ComponentProps<"div">, "title"> & {
  /** Ícone decorativo, ex.: `<FileText />` (lucide). */
  icon?: React.ReactNode;
  title: React.ReactNode;
  description?: React.ReactNode;
  /** Ação opcional, ex.: `<Button>Novo termo</Button>`. */
  action?: React.ReactNode;
  /** Elemento usado para o título (padrão: "h2"). */
  titleAs?: "h2" | "h3" | "h4" | "p";
};

function EmptyState({ icon, title, description, action, titleAs: Title = "h2", className, ...props }: EmptyStateProps) {
  return (
    <div
      data-slot="empty-state"
      className={cn(
        "flex flex-col items-center justify-center gap-3 rounded-lg border border-dashed px-6 py-10 text-center",
        className,
      )}
      {...props}
    >
      {icon ? (
        <div
          data-slot="empty-state-icon"
          aria-hidden="true"
          className="flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-6"
        >
          {icon}
        </div>
      ) : null}
      <div className="flex max-w-md flex-col gap-1">
        <Title data-slot="empty-state-title" className="text-base font-semibold text-foreground">
          {title}
        </Title>
        {description ? (
          <p data-slot="empty-state-description" className="text-sm text-muted-foreground">
            {description}
          </p>
        ) : null}
      </div>
      {action ? (
        <div data-slot="empty-state-action" className="mt-2 flex flex-wrap items-center justify-center gap-2">
          {action}
        </div>
      ) : null}
    </div>
  );
}

export { EmptyState, type EmptyStateProps };
