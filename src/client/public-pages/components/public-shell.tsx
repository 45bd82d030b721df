import type * as React from "react";
import { Logo } from "@/components/brand/logo";
import { MAIN_CONTENT_ID, SkipLink } from "@/components/ui/skip-link";
import { BusyNotice } from "./busy-notice";

/** Header, a centred column sized for phones first, and a footer. */
export function PublicShell({
  children,
  clinic,
  clinicLogoUrl,
}: {
  children: React.ReactNode;
  clinic?: string | null;
  clinicLogoUrl?: string | null;
}) {
  return (
    <div className="min-h-dvh bg-muted/40 print:bg-white">
      <SkipLink className="print:hidden" />
      <header className="border-b bg-background print:hidden">
        <div className="mx-auto flex max-w-3xl items-center justify-between gap-3 px-4 py-3">
          <Logo />
          {clinic ? (
            <span className="flex min-w-0 items-center justify-end gap-2">
              {clinicLogoUrl ? (
                <img
                  src={clinicLogoUrl}
                  alt={`Logo de ${clinic}`}
                  className="h-9 w-auto max-w-32 shrink-0 object-contain"
                  data-testid="clinic-logo"
                />
              ) : null}
              <span className="min-w-0 truncate text-right text-sm text-muted-foreground">{clinic}</span>
            </span>
          ) : null}
        </div>
      </header>
      <main
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        className="mx-auto grid outline-none max-w-3xl gap-4 px-3 py-4 sm:px-4 sm:py-6 print:max-w-none print:p-0"
      >
        {children}
      </main>
      <BusyNotice />
      <footer className="mx-auto max-w-3xl px-4 pb-8 text-center text-xs text-muted-foreground print:hidden">
        Consentir · segurança digital para a sua conduta
      </footer>
    </div>
  );
}

/** A white card section. */
export function Panel({ children, className = "", ...props }: React.ComponentProps<"section">) {
  return (
    <section className={`grid gap-4 rounded-xl border bg-card p-4 shadow-sm sm:p-6 ${className}`} {...props}>
      {children}
    </section>
  );
}

const TONES = {
  success: "border-success/30 bg-success/15 text-[color-mix(in_oklab,var(--color-success)_60%,black)]",
  warning: "border-warning/50 bg-warning/20 text-[color-mix(in_oklab,var(--color-warning)_45%,black)]",
  destructive: "border-transparent bg-destructive text-destructive-foreground",
  neutral: "border-transparent bg-secondary text-secondary-foreground",
  outline: "text-foreground",
} as const;

export function Pill({
  tone,
  children,
  ...props
}: { tone: keyof typeof TONES; children: React.ReactNode } & React.ComponentProps<"span">) {
  return (
    <span
      className={`inline-flex w-fit shrink-0 items-center gap-1 rounded-md border px-2 py-0.5 text-xs font-medium whitespace-nowrap ${TONES[tone]}`}
      {...props}
    >
      {children}
    </span>
  );
}

const NOTICE_TONES = {
  error: "border-destructive/40 bg-destructive/5 text-destructive",
  success: "border-success/40 bg-success/10 text-[color-mix(in_oklab,var(--color-success)_55%,black)]",
  info: "border-primary/30 bg-primary/5 text-foreground",
} as const;

/** An inline message (the public pages carry no toast library). */
export function Notice({
  tone,
  title,
  children,
  ...props
}: { tone: keyof typeof NOTICE_TONES; title: string; children?: React.ReactNode } & Omit<
  React.ComponentProps<"div">,
  "title"
>) {
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className={`grid gap-1 rounded-lg border px-4 py-3 text-sm ${NOTICE_TONES[tone]}`}
      {...props}
    >
      <p className="font-semibold">{title}</p>
      {children ? <div className="text-sm opacity-90">{children}</div> : null}
    </div>
  );
}

const BUTTON = {
  primary: "bg-primary text-primary-foreground hover:bg-primary/90",
  outline: "border bg-background hover:bg-muted",
  ghost: "hover:bg-muted",
} as const;

/** The button look, for links that download (an <a> rather than a <button>). */
export function buttonClasses(variant: keyof typeof BUTTON = "primary", className = ""): string {
  return `inline-flex min-h-11 items-center justify-center gap-2 rounded-md px-4 text-sm font-medium transition outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:pointer-events-none disabled:opacity-50 [&_svg]:size-4 [&_svg]:shrink-0 ${BUTTON[variant]} ${className}`;
}

export function PlainButton({
  variant = "primary",
  className = "",
  type = "button",
  ...props
}: { variant?: keyof typeof BUTTON } & React.ComponentProps<"button">) {
  return <button type={type} className={buttonClasses(variant, className)} {...props} />;
}
