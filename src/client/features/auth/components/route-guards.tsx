import { Navigate, Outlet, useLocation } from "react-router";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { ApiError } from "@/lib/api";
import { useCurrentUser } from "../api/auth-api";

/** The session is locked for front-desk signing. */
const isLocked = (error: unknown) => error instanceof ApiError && error.status === 423;

function FullPageSpinner() {
  return (
    <div className="grid min-h-svh place-items-center">
      <Spinner className="size-6" />
    </div>
  );
}

function ProfileLoadError({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="grid min-h-svh place-items-center p-4 text-center">
      <div className="grid gap-3">
        <p>Erro ao carregar perfil do usuário</p>
        <Button variant="outline" onClick={onRetry}>
          Tentar novamente
        </Button>
      </div>
    </div>
  );
}

/** Every app route: signed out → /auth (remembering where the user was going). */
export function RequireAuth() {
  const { data: user, isPending, isError, error, refetch } = useCurrentUser();
  const location = useLocation();
  if (isPending) return <FullPageSpinner />;
  if (isError && isLocked(error)) return <Navigate to="/desbloquear" replace />;
  if (isError) return <ProfileLoadError onRetry={() => void refetch()} />;
  if (!user) return <Navigate to="/auth" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}

/** /auth: signed in → /. */
export function RedirectIfSignedIn() {
  const { data: user, isPending, error } = useCurrentUser();
  if (isPending) return <FullPageSpinner />;
  if (isLocked(error)) return <Navigate to="/desbloquear" replace />;
  if (user) return <Navigate to="/" replace />;
  return <Outlet />;
}
