import { createBrowserRouter } from "react-router";
import { AuthPage } from "@/features/auth/components/auth-page";
import { ResetPasswordPage } from "@/features/auth/components/reset-password-page";
import { RedirectIfSignedIn, RequireAuth } from "@/features/auth/components/route-guards";
import { DashboardPage } from "@/features/dashboard/components/dashboard-page";
import { PatientCreatePage } from "@/features/patients/components/patient-create-page";
import { PatientDetailPage } from "@/features/patients/components/patient-detail-page";
import { PatientEditPage } from "@/features/patients/components/patient-edit-page";
import { PatientsListPage } from "@/features/patients/components/patients-list-page";
import { AppLayout } from "@/features/shell/components/app-layout";
import { ComingSoonPage } from "@/pages/coming-soon-page";
import { DevOutboxPage } from "@/pages/dev-outbox-page";
import { NotFoundPage } from "@/pages/not-found-page";
import { ProfilePage } from "@/pages/profile-page";

/** Screens of the spec whose features land in later issues. */
const UPCOMING: [string, string][] = [
  ["/documents", "Documentos"],
  ["/documents/create", "Novo Documento"],
  ["/contracts/create", "Novo Documento"],
  ["/certificates", "Certificado Digital"],
  ["/templates", "Templates"],
  ["/templates/create", "Novo Template"],
  ["/profile/templates", "Config. Templates"],
  ["/procedures", "Procedimentos"],
  ["/content-management", "Gestão de Conteúdo"],
  ["/procedures/associations", "Associar Conteúdo"],
  ["/users", "Usuários"],
  ["/integration", "Integração"],
  ["/settings", "Configurações"],
  ["/sign", "Assinar"],
  ["/notifications", "Avisos"],
];

export const router = createBrowserRouter([
  {
    element: <RedirectIfSignedIn />,
    children: [{ path: "/auth", element: <AuthPage /> }],
  },
  { path: "/auth/redefinir-senha", element: <ResetPasswordPage /> },
  { path: "/dev/emails", element: <DevOutboxPage /> },
  {
    element: <RequireAuth />,
    children: [
      {
        element: <AppLayout />,
        children: [
          { path: "/", element: <DashboardPage /> },
          { path: "/profile", element: <ProfilePage /> },
          { path: "/patients", element: <PatientsListPage /> },
          { path: "/patients/create", element: <PatientCreatePage /> },
          { path: "/patients/:id", element: <PatientDetailPage /> },
          { path: "/patients/:id/edit", element: <PatientEditPage /> },
          ...UPCOMING.map(([path, title]) => ({ path, element: <ComingSoonPage title={title} /> })),
          { path: "*", element: <NotFoundPage /> },
        ],
      },
    ],
  },
]);
