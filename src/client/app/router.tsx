import type * as React from "react";
import { createBrowserRouter } from "react-router";
import { registerPrefetchRoutes } from "@/components/routing/prefetch";
import { RedirectIfSignedIn, RequireAuth } from "@/features/auth/components/route-guards";
import { DashboardPage } from "@/features/dashboard/components/dashboard-page";
import { AppLayout } from "@/features/shell/components/app-layout";
import { ComingSoonPage } from "@/pages/coming-soon-page";
import { NotFoundPage } from "@/pages/not-found-page";

/**
 * Screens load on demand (route-level code splitting): the sign-in screen does not carry the
 * patients feature, and each feature downloads when first opened.
 */
const page =
  <T,>(load: () => Promise<T>, pick: (module: T) => React.ComponentType) =>
  async () => ({
    Component: pick(await load()),
  });

/** Screens of the spec whose features land in later issues. */
const UPCOMING: [string, string][] = [];

export const router = createBrowserRouter([
  {
    element: <RedirectIfSignedIn />,
    children: [
      {
        path: "/auth",
        lazy: page(
          () => import("@/features/auth/components/auth-page"),
          (m) => m.AuthPage,
        ),
      },
    ],
  },
  {
    path: "/auth/redefinir-senha",
    lazy: page(
      () => import("@/features/auth/components/reset-password-page"),
      (m) => m.ResetPasswordPage,
    ),
  },
  {
    path: "/convite/:token",
    lazy: page(
      () => import("@/features/users/components/invitation-page"),
      (m) => m.InvitationPage,
    ),
  },
  {
    path: "/desbloquear",
    lazy: page(
      () => import("@/features/front-desk/components/unlock-page"),
      (m) => m.UnlockPage,
    ),
  },
  {
    path: "/dev/emails",
    lazy: page(
      () => import("@/pages/dev-outbox-page"),
      (m) => m.DevOutboxPage,
    ),
  },
  {
    element: <RequireAuth />,
    children: [
      {
        element: <AppLayout />,
        children: [
          { path: "/", element: <DashboardPage /> },
          {
            path: "/sign",
            lazy: page(
              () => import("@/features/front-desk/components/front-desk-page"),
              (m) => m.FrontDeskPage,
            ),
          },
          {
            path: "/profile",
            lazy: page(
              () => import("@/features/profile/components/profile-page"),
              (m) => m.ProfilePage,
            ),
          },
          {
            path: "/patients",
            lazy: page(
              () => import("@/features/patients/components/patients-list-page"),
              (m) => m.PatientsListPage,
            ),
          },
          {
            path: "/patients/create",
            lazy: page(
              () => import("@/features/patients/components/patient-create-page"),
              (m) => m.PatientCreatePage,
            ),
          },
          {
            path: "/patients/:id",
            lazy: page(
              () => import("@/features/patients/components/patient-detail-page"),
              (m) => m.PatientDetailPage,
            ),
          },
          {
            path: "/patients/:id/edit",
            lazy: page(
              () => import("@/features/patients/components/patient-edit-page"),
              (m) => m.PatientEditPage,
            ),
          },
          {
            path: "/procedures",
            lazy: page(
              () => import("@/features/procedures/components/procedures-page"),
              (m) => m.ProceduresPage,
            ),
          },
          {
            path: "/procedures/associations",
            lazy: page(
              () => import("@/features/procedures/components/procedure-associations-page"),
              (m) => m.ProcedureAssociationsPage,
            ),
          },
          {
            path: "/content-management",
            lazy: page(
              () => import("@/features/content/components/content-management-page"),
              (m) => m.ContentManagementPage,
            ),
          },
          {
            path: "/templates",
            lazy: page(
              () => import("@/features/templates/components/templates-list-page"),
              (m) => m.TemplatesListPage,
            ),
          },
          {
            path: "/templates/create",
            lazy: page(
              () => import("@/features/templates/components/template-create-page"),
              (m) => m.TemplateCreatePage,
            ),
          },
          {
            path: "/templates/:id/edit",
            lazy: page(
              () => import("@/features/templates/components/template-edit-page"),
              (m) => m.TemplateEditPage,
            ),
          },
          {
            path: "/templates/:id/preview",
            lazy: page(
              () => import("@/features/templates/components/template-view-page"),
              (m) => m.TemplateViewPage,
            ),
          },
          {
            path: "/templates/:id/versions",
            lazy: page(
              () => import("@/features/templates/components/template-versions-page"),
              (m) => m.TemplateVersionsPage,
            ),
          },
          {
            path: "/templates/:id/statistics",
            lazy: page(
              () => import("@/features/templates/components/template-statistics-page"),
              (m) => m.TemplateStatisticsPage,
            ),
          },
          {
            path: "/profile/templates",
            lazy: page(
              () => import("@/features/template-defaults/components/template-defaults-page"),
              (m) => m.TemplateDefaultsPage,
            ),
          },
          {
            path: "/documents",
            lazy: page(
              () => import("@/features/documents/components/documents-list-page"),
              (m) => m.DocumentsListPage,
            ),
          },
          {
            path: "/documents/awaiting-signature",
            lazy: page(
              () => import("@/features/documents/components/awaiting-signature-page"),
              (m) => m.AwaitingSignaturePage,
            ),
          },
          {
            path: "/documents/create",
            lazy: page(
              () => import("@/features/documents/components/document-create-page"),
              (m) => m.DocumentCreatePage,
            ),
          },
          {
            path: "/documents/bulk",
            lazy: page(
              () => import("@/features/documents/components/bulk-send-page"),
              (m) => m.BulkSendPage,
            ),
          },
          {
            path: "/contracts/create",
            lazy: page(
              () => import("@/features/documents/components/document-create-page"),
              (m) => m.DocumentCreatePage,
            ),
          },
          {
            path: "/documents/:id",
            lazy: page(
              () => import("@/features/documents/components/document-detail-page"),
              (m) => m.DocumentDetailPage,
            ),
          },
          {
            path: "/integration",
            lazy: page(
              () => import("@/features/integration/components/integration-page"),
              (m) => m.IntegrationPage,
            ),
          },
          {
            path: "/users",
            lazy: page(
              () => import("@/features/users/components/users-page"),
              (m) => m.UsersPage,
            ),
          },
          {
            path: "/certificates",
            lazy: page(
              () => import("@/features/certificates/components/certificates-page"),
              (m) => m.CertificatesPage,
            ),
          },
          {
            path: "/settings",
            lazy: page(
              () => import("@/features/settings/components/settings-page"),
              (m) => m.SettingsPage,
            ),
          },
          {
            path: "/notifications",
            lazy: page(
              () => import("@/features/notices/components/notices-page"),
              (m) => m.NoticesPage,
            ),
          },
          ...UPCOMING.map(([path, title]) => ({ path, element: <ComingSoonPage title={title} /> })),
          { path: "*", element: <NotFoundPage /> },
        ],
      },
    ],
  },
]);

registerPrefetchRoutes(router.routes);
