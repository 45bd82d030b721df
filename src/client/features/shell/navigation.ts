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
import { type Action, profileCan } from "@shared/permissions";

export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
  /** Shown only to who may do this (src/shared/permissions.ts, the table the server enforces). */
  permission?: Action;
  /** Only an establishment has it (an independent professional's account is one person). */
  establishmentOnly?: boolean;
}

/** The sidebar, exactly as spec part 1 §2 lists it. */
export const SIDEBAR_GROUPS: { label: string; items: NavItem[] }[] = [
  {
    label: "Principal",
    items: [
      { label: "Dashboard", to: "/", icon: LayoutDashboard },
      { label: "Pacientes", to: "/patients", icon: Users, permission: "patients.read" },
      { label: "Documentos", to: "/documents", icon: FileText, permission: "documents.read" },
    ],
  },
  {
    label: "Gestão de Conteúdo",
    items: [
      { label: "Procedimentos", to: "/procedures", icon: Stethoscope, permission: "procedures.read" },
      { label: "Gestão de Conteúdo", to: "/content-management", icon: BookOpen, permission: "content.read" },
      { label: "Templates", to: "/templates", icon: FileSignature, permission: "templates.read" },
      // Personal defaults fill the new-document form: for who creates documents.
      { label: "Config. Templates", to: "/profile/templates", icon: SlidersHorizontal, permission: "documents.write" },
      { label: "Associar Conteúdo", to: "/procedures/associations", icon: Link2, permission: "procedures.write" },
    ],
  },
  {
    label: "Administração",
    items: [
      { label: "Usuários", to: "/users", icon: Building2, permission: "users.manage", establishmentOnly: true },
      { label: "Integração", to: "/integration", icon: Plug, permission: "integration.manage" },
      { label: "Certificado Digital", to: "/certificates", icon: ShieldCheck, permission: "certificates.open" },
      { label: "Configurações", to: "/settings", icon: Settings, permission: "settings.manage" },
    ],
  },
];

/** The bottom bar under 768 px (spec part 1 §2). */
export const BOTTOM_BAR: NavItem[] = [
  { label: "Novo", to: "/documents/create", icon: Plus, permission: "documents.write" },
  { label: "Assinar", to: "/sign", icon: PenLine, permission: "documents.write" },
  { label: "Avisos", to: "/notifications", icon: Bell },
  { label: "Perfil", to: "/profile", icon: User },
];

/**
 * The screens opened most often right after the dashboard: the only ones the app prefetches when
 * the browser is idle (decision 033, amended). Prefetching every sidebar screen (~110 chunks,
 * ~1.2 MB) kept a phone's CPU busy for more than a second after the first paint; the others load on
 * hover, focus or touch of their link.
 */
export const LIKELY_NEXT_SCREENS = ["/documents", "/documents/create", "/patients"] as const;

/** Who is looking: the role, the owner flag and the kind of account (GET /api/auth/session). */
export interface NavViewer {
  profile: { role: string; is_proprietario: boolean };
  tenant: { tipo_perfil: string };
}

/** May `viewer` see this entry? No viewer yet (session loading): only entries without a rule. */
export function canSee(item: NavItem, viewer: NavViewer | null | undefined): boolean {
  if (item.establishmentOnly && viewer?.tenant.tipo_perfil !== "estabelecimento") return false;
  return item.permission ? profileCan(viewer?.profile, item.permission) : true;
}

/** The sidebar groups `viewer` may use; a group left empty is dropped. */
export function sidebarFor(viewer: NavViewer | null | undefined): { label: string; items: NavItem[] }[] {
  return SIDEBAR_GROUPS.map((group) => ({
    ...group,
    items: group.items.filter((item) => canSee(item, viewer)),
  })).filter((group) => group.items.length > 0);
}

export function bottomBarFor(viewer: NavViewer | null | undefined): NavItem[] {
  return BOTTOM_BAR.filter((item) => canSee(item, viewer));
}

/** The {@link LIKELY_NEXT_SCREENS} `viewer` may open, most likely first. */
export function likelyNextScreensFor(viewer: NavViewer | null | undefined): string[] {
  const items = [...SIDEBAR_GROUPS.flatMap((group) => group.items), ...BOTTOM_BAR];
  return LIKELY_NEXT_SCREENS.filter((to) => items.some((item) => item.to === to && canSee(item, viewer)));
}

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

/** Screens the menus do not name, most specific first (the tab title, `document.title`). */
const PAGE_TITLES: [RegExp, string][] = [
  [/^\/patients\/create$/, "Novo paciente"],
  [/^\/patients\/[^/]+\/edit$/, "Editar paciente"],
  [/^\/patients\/[^/]+$/, "Paciente"],
  [/^\/documents\/create$/, "Novo documento"],
  [/^\/contracts\/create$/, "Novo documento"],
  [/^\/documents\/[^/]+$/, "Documento"],
  [/^\/templates\/create$/, "Novo template"],
  [/^\/templates\/[^/]+\/edit$/, "Editar template"],
  [/^\/templates\/[^/]+\/preview$/, "Visualizar template"],
  [/^\/templates\/[^/]+\/versions$/, "Histórico de versões"],
  [/^\/templates\/[^/]+\/statistics$/, "Estatísticas do template"],
  [/^\/profile$/, "Meu perfil"],
];

/** Title of the screen at `pathname` for the browser tab: the screen's own name, else the menu's. */
export function pageTitle(pathname: string): string {
  return PAGE_TITLES.find(([pattern]) => pattern.test(pathname))?.[1] ?? screenTitle(pathname);
}
