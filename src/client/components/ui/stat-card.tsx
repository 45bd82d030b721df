import type * as React from "react";

import { cn } from "@/lib/utils";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";

type StatCardProps = Omit<React.ComponentProps<"div">, "title"> & {
  title: React.ReactNode;
  value: React.ReactNode;
  /** Ícone decorativo, ex.: `<FileSignature />` (lucide). */
  icon?: React.ReactNode;
  /** Texto auxiliar abaixo do valor (ex.: "nos últimos 30 dias"). */
  description?: React.ReactNode;
  /** Enquanto `true`, mostra Skeletons no lugar do valor/descrição. */
  loading?: boolean;
};

function StatCard({ title, value, icon, description, loading = false, className, ...props }: StatCardProps) {
  return (
    <Card data-slot="stat-card" aria-busy={loading || undefined} className={cn("gap-3 py-5", className)} {...props}>
      <div className="flex items-start justify-between gap-3 px-5">
        <p data-slot="stat-card-title" className="text-sm font-medium text-muted-foreground">
          {title}
        </p>
        {icon ? (
          <div
            aria-hidden="true"
            className="flex size-8 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4"
          >
            {icon}
          </div>
        ) : null}
      </div>
      <div className="flex flex-col gap-1 px-5">
        {loading ? (
          <>
            <Skeleton className="h-8 w-24" />
            {description ? <Skeleton className="h-4 w-32" /> : null}
            <span className="sr-only">Carregando</span>
          </>
        ) : (
          <>
            <p data-slot="stat-card-value" className="text-2xl font-semibold tabular-nums">
              {value}
            </p>
            {description ? (
              <p data-slot="stat-card-description" className="text-xs text-muted-foreground">
                {description}
              </p>
            ) : null}
          </>
        )}
      </div>
    </Card>
  );
}

export { StatCard, type StatCardProps };
