import type * as React from "react";
import { createBrowserRouter } from "react-router";
import { RedirectIfSignedIn, RequireAuth } from "@/features/auth/components/route-guards";
import { DashboardPage } from "@/features/dashboard/components/dashboard-page";
import { AppLayout } from "@/features/shell/components/app-layout";
import { ComingSoonPage } from "@/pages/coming-soon-page";
import { NotFoundPage } from "@/pages/not-found-page";

/**
 * Screens load on demand (route-level code splitting): the sign-in screen does not carry the
 * patients feature, and each feature downloads when first opened.
 */
const page = <T,>(load: () => Promise<T>, pick: (module: T) => React.ComponentType) => async () => ({
  Component: pick(await load()),
});

/** Screens of the spec whose features land in later issues. */
const UPCOMING: [string, string][] = [
  ["/documents", "Documentos"],
  ["/documents/create", "Novo Documento"],
  ["/contracts/create", "Novo Documento"],
  ["/certificates", "Certificado Digital"],
  ["/templates", "Templates"],
  ["/templates/create", "Novo Template"],
  ["/profile/templates", "Config. Templates"],
  ["/users", "Usuários"],
  ["/integration", "Integração"],
  ["/settings", "Configurações"],
  ["/sign", "Assinar"],
  ["/notifications", "Avisos"],
];

export const router = createBrowserRouter([
  {
    element: <RedirectIfSignedIn />,
    children: [{ path: "/auth", lazy: page(() => import("@/features/auth/components/auth-page"), (m) => m.AuthPage) }],
  },
  { path: "/auth/redefinir-senha", lazy: page(() => import("@/features/auth/components/reset-password-page"), (m) => m.ResetPasswordPage) },
  { path: "/dev/emails", lazy: page(() => import("@/pages/dev-outbox-page"), (m) => m.DevOutboxPage) },
  {
    element: <RequireAuth />,
    children: [
      {
        element: <AppLayout />,
        children: [
          { path: "/", element: <DashboardPage /> },
          { path: "/profile", lazy: page(() => import("@/pages/profile-page"), (m) => m.ProfilePage) },
          { path: "/patients", lazy: page(() => import("@/features/patients/components/patients-list-page"), (m) => m.PatientsListPage) },
          { path: "/patients/create", lazy: page(() => import("@/features/patients/components/patient-create-page"), (m) => m.PatientCreatePage) },
          { path: "/patients/:id", lazy: page(() => import("@/features/patients/components/patient-detail-page"), (m) => m.PatientDetailPage) },
          { path: "/patients/:id/edit", lazy: page(() => import("@/features/patients/components/patient-edit-page"), (m) => m.PatientEditPage) },
          { path: "/procedures", lazy: page(() => import("@/features/procedures/components/procedures-page"), (m) => m.ProceduresPage) },
          {
            path: "/procedures/associations",
            lazy: page(() => import("@/features/procedures/components/procedure-associations-page"), (m) => m.ProcedureAssociationsPage),
          },
          {
            path: "/content-management",
            lazy: page(() => import("@/features/content/components/content-management-page"), (m) => m.ContentManagementPage),
          },
          ...UPCOMING.map(([path, title]) => ({ path, element: <ComingSoonPage title={title} /> })),
          { path: "*", element: <NotFoundPage /> },
        ],
      },
    ],
  },
]);
