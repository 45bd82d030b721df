import type * as React from "react";
import { CheckIcon } from "lucide-react";

import { cn } from "@/lib/utils";

type StepperStep = {
  label: string;
  description?: string;
};

type StepStatus = "complete" | "current" | "upcoming";

type StepperProps = Omit<React.ComponentProps<"nav">, "children"> & {
  steps: StepperStep[];
  /** Índice (base 0) da etapa atual. */
  current: number;
  /**
   * Opcional: torna as etapas concluídas clicáveis (voltar a uma etapa anterior).
   */
  onStepClick?: (index: number) => void;
};

function Stepper({
  steps,
  current,
  onStepClick,
  className,
  "aria-label": ariaLabel = "Etapas",
  ...props
}: StepperProps) {
  const currentStep = steps[current];

  return (
    <nav data-slot="stepper" aria-label={ariaLabel} className={cn("w-full", className)} {...props}>
      <ol className="flex w-full items-center gap-2">
        {steps.map((step, index) => {
          const status: StepStatus = index < current ? "complete" : index === current ? "current" : "upcoming";
          const isLast = index === steps.length - 1;
          const clickable = status === "complete" && onStepClick !== undefined;

          const badge = (
            <span
              data-slot="stepper-badge"
              aria-hidden="true"
              className={cn(
                "flex size-8 shrink-0 items-center justify-center rounded-full border-2 text-sm font-semibold tabular-nums transition-colors",
                status === "complete" && "border-primary bg-primary text-primary-foreground",
                status === "current" && "border-primary bg-background text-primary",
                status === "upcoming" && "border-border bg-background text-muted-foreground",
              )}
            >
              {status === "complete" ? <CheckIcon className="size-4" /> : index + 1}
            </span>
          );

          const text = (
            <span
              className={cn(
                "min-w-0 flex-col text-left",
                status === "current" ? "flex" : "sr-only sm:not-sr-only sm:flex",
              )}
            >
              <span
                className={cn(
                  "truncate text-sm font-medium",
                  status === "upcoming" ? "text-muted-foreground" : "text-foreground",
                )}
              >
                {step.label}
              </span>
              {step.description ? (
                <span className="hidden truncate text-xs text-muted-foreground lg:block">{step.description}</span>
              ) : null}
            </span>
          );

          const srPrefix = <span className="sr-only">{`Etapa ${index + 1}: `}</span>;
          const srStatus =
            status === "complete" ? (
              <span className="sr-only"> (concluída)</span>
            ) : status === "upcoming" ? (
              <span className="sr-only"> (pendente)</span>
            ) : null;

          return (
            <li
              key={`${index}-${step.label}`}
              data-slot="stepper-step"
              data-state={status}
              aria-current={status === "current" ? "step" : undefined}
              className={cn("flex min-w-0 items-center gap-2", !isLast && "flex-auto sm:flex-1")}
            >
              {clickable ? (
                <button
                  type="button"
                  onClick={() => onStepClick(index)}
                  className="flex min-w-0 items-center gap-2 rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
                >
                  {badge}
                  {srPrefix}
                  {text}
                  {srStatus}
                </button>
              ) : (
                <span className="flex min-w-0 items-center gap-2">
                  {badge}
                  {srPrefix}
                  {text}
                  {srStatus}
                </span>
              )}
              {!isLast ? (
                <span
                  aria-hidden="true"
                  className={cn("h-0.5 min-w-4 flex-1 rounded-full", index < current ? "bg-primary" : "bg-border")}
                />
              ) : null}
            </li>
          );
        })}
      </ol>
      {currentStep ? (
        <p className="sr-only" aria-live="polite">
          {`Etapa ${current + 1} de ${steps.length}: ${currentStep.label}`}
        </p>
      ) : null}
    </nav>
  );
}

export { Stepper, type StepperProps, type StepperStep, type StepStatus };
