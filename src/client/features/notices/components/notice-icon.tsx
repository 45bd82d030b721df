import {
  CloudAlert,
  Eye,
  FileCheck2,
  FileX2,
  FilePen,
  Hourglass,
  Info,
  type LucideIcon,
  MailX,
  MessageCircleQuestion,
  ShieldAlert,
  ShieldX,
} from "lucide-react";
import { cn } from "@/lib/utils";
import type { NoticeKind } from "@shared/notices/notice-kinds";

const ICONS: Record<NoticeKind, { icon: LucideIcon; tone: string; label: string }> = {
  "document.viewed": {
    icon: Eye,
    tone: "bg-warning/20 text-[color-mix(in_oklab,var(--color-warning)_45%,black)]",
    label: "Documento visualizado",
  },
  "document.expiring": {
    icon: Hourglass,
    tone: "bg-warning/20 text-[color-mix(in_oklab,var(--color-warning)_45%,black)]",
    label: "Documento vencendo",
  },
  "document.signed": {
    icon: FileCheck2,
    tone: "bg-success/15 text-[color-mix(in_oklab,var(--color-success)_60%,black)]",
    label: "Documento assinado",
  },
  "document.refused": { icon: FileX2, tone: "bg-destructive/10 text-destructive", label: "Documento recusado" },
  "document.revoked": { icon: FileX2, tone: "bg-destructive/10 text-destructive", label: "Consentimento revogado" },
  "document.paused": {
    icon: MessageCircleQuestion,
    tone: "bg-warning/20 text-[color-mix(in_oklab,var(--color-warning)_45%,black)]",
    label: "Assinatura pausada",
  },
  "professional.awaiting": {
    icon: FilePen,
    tone: "bg-primary/10 text-primary",
    label: "Aguardando sua assinatura",
  },
  "email.failed": { icon: MailX, tone: "bg-destructive/10 text-destructive", label: "E-mail não entregue" },
  "feegow.failed": { icon: CloudAlert, tone: "bg-destructive/10 text-destructive", label: "Falha no Feegow" },
  "certificate.expiring": {
    icon: ShieldAlert,
    tone: "bg-warning/20 text-[color-mix(in_oklab,var(--color-warning)_45%,black)]",
    label: "Certificado vencendo",
  },
  "certificate.expired": { icon: ShieldX, tone: "bg-destructive/10 text-destructive", label: "Certificado vencido" },
  system: { icon: Info, tone: "bg-muted text-muted-foreground", label: "Aviso do sistema" },
};

/** The round icon of a notice's kind (its colour says how urgent). */
export function NoticeIcon({ kind, className }: { kind: NoticeKind; className?: string }) {
  const { icon: Icon, tone, label } = ICONS[kind];
  return (
    <span
      className={cn("flex size-9 shrink-0 items-center justify-center rounded-full", tone, className)}
      title={label}
    >
      <Icon className="size-4" aria-hidden />
      <span className="sr-only">{label}</span>
    </span>
  );
}
