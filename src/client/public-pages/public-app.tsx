import { useDocumentTitle } from "@/lib/use-document-title";
import { PublicShell } from "./components/public-shell";
import { matchPublicRoute } from "./lib/route";
import { SigningPage } from "./signing-page";
import { VerificationPage } from "./verification-page";
import { VerificationStart } from "./verification-start";

/** A path switch is all the routing two pages need. */
export function PublicApp({ pathname }: { pathname: string }) {
  const route = matchPublicRoute(pathname);
  useDocumentTitle(
    route?.page === "sign"
      ? "Assinatura de documento"
      : route?.page === "verify" || route?.page === "verify-start"
        ? "Verificação de documento"
        : "Página não encontrada",
  );
  if (route?.page === "sign") return <SigningPage token={route.param} />;
  if (route?.page === "verify") return <VerificationPage code={route.param} />;
  if (route?.page === "verify-start") return <VerificationStart />;
  return (
    <PublicShell>
      <div className="grid gap-2 rounded-xl border bg-card p-6 text-center shadow-sm">
        <h1 className="text-lg font-semibold">Página não encontrada</h1>
        <p className="text-sm text-muted-foreground">Confira o endereço recebido.</p>
      </div>
    </PublicShell>
  );
}
