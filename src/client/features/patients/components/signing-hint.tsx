import { PenLine } from "lucide-react";
import type * as React from "react";

/**
 * Marks a patient field that signing needs (CPF; e-mail or phone) without making it required for
 * saving: muted when filled, amber while missing.
 */
export function SigningHint({ missing, children }: { missing: boolean; children: React.ReactNode }) {
  return (
    <span
      className={`inline-flex items-start gap-1.5 ${missing ? "text-amber-700 dark:text-amber-400" : ""}`}
      data-testid="signing-hint"
      data-missing={missing ? "true" : undefined}
    >
      <PenLine className="mt-0.5 size-3.5 shrink-0" aria-hidden />
      <span>{children}</span>
    </span>
  );
}
