import {
  Bell,
  BookOpen,
  Building2,
  FileSignature,
  FileText,
  LayoutDashboard,
  Link2,
  type LucideIcon,
  PenLine,
  Plus,
  Plug,
  Settings,
  ShieldCheck,
  SlidersHorizontal,
  Stethoscope,
  User,
  Users,
} from "lucide-react";

export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
}

/** The sidebar, exactly as spec part 1 §2 lists it. */
export const SIDEBAR_GROUPS: { label: string; items: NavItem[] }[] = [
  {
    label: "Principal",
    items: [
      { label: "Dashboard", to: "/", icon: LayoutDashboard },
      { label: "Pacientes", to: "/patients", icon: Users },
      { label: "Documentos", to: "/documents", icon: FileText },
    ],
  },
  {
    label: "Gestão de Conteúdo",
    items: [
      { label: "Procedimentos", to: "/procedures", icon: Stethoscope },
      { label: "Gestão de Conteúdo", to: "/content-management", icon: BookOpen },
      { label: "Templates", to: "/templates", icon: FileSignature },
      { label: "Config. Templates", to: "/profile/templates", icon: SlidersHorizontal },
      { label: "Associar Conteúdo", to: "/procedures/associations", icon: Link2 },
    ],
  },
  {
    label: "Administração",
    items: [
      { label: "Usuários", to: "/users", icon: Building2 },
      { label: "Integração", to: "/integration", icon: Plug },
      { label: "Certificado Digital", to: "/certificates", icon: ShieldCheck },
      { label: "Configurações", to: "/settings", icon: Settings },
    ],
  },
];

/** The bottom bar under 768 px (spec part 1 §2). */
export const BOTTOM_BAR: NavItem[] = [
  { label: "Novo", to: "/documents/create", icon: Plus },
  { label: "Assinar", to: "/sign", icon: PenLine },
  { label: "Avisos", to: "/notifications", icon: Bell },
  { label: "Perfil", to: "/profile", icon: User },
];


/** Title of the screen at `pathname`, for the header. */
export function screenTitle(pathname: string): string {
  const all = [...SIDEBAR_GROUPS.flatMap((g) => g.items), ...BOTTOM_BAR];
  const exact = all.find((item) => item.to === pathname);
  if (exact) return exact.label === "Novo" ? "Novo documento" : exact.label;
  const prefix = all
    .filter((item) => item.to !== "/" && pathname.startsWith(`${item.to}/`))
    .sort((a, b) => b.to.length - a.to.length)[0];
  return prefix?.label ?? "Consentir";
}
