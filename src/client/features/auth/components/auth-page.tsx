import { CheckCircle2 } from "lucide-react";
import { useState } from "react";
import { useNavigate } from "react-router";
import { Logo } from "@/components/brand/logo";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Card, CardContent, CardHeader } from "@/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { MESSAGES } from "@shared/schemas/signup";
import { type AccountType, AccountTypeSelector } from "./account-type-selector";
import { EstablishmentWizard } from "./establishment-wizard";
import { ProfessionalForm } from "./professional-form";
import { SignInForm } from "./sign-in-form";
import { useDocumentTitle } from "@/lib/use-document-title";

/** /auth: Entrar and Cadastrar (spec part 1 §2, §4 "Auth page"). */
export function AuthPage() {
  const navigate = useNavigate();
  const [tab, setTab] = useState<"entrar" | "cadastrar">("entrar");
  useDocumentTitle(tab === "entrar" ? "Entrar" : "Criar conta");
  const [accountType, setAccountType] = useState<AccountType | null>(null);
  const [createdEmail, setCreatedEmail] = useState<string | null>(null);

  function onSignedUp(email: string) {
    setCreatedEmail(email);
    setAccountType(null);
    setTab("entrar");
    window.scrollTo({ top: 0 });
  }

  return (
    <main className="min-h-svh bg-gradient-to-b from-accent/60 to-background px-4 py-8 sm:py-12">
      <div className={`mx-auto grid gap-6 ${tab === "cadastrar" && accountType ? "max-w-2xl" : "max-w-md"}`}>
        <header className="grid justify-items-center gap-2 text-center">
          <Logo />
          <p className="text-sm text-muted-foreground">Segurança digital para a sua conduta</p>
        </header>
        <Card>
          <CardHeader className="sr-only">
            <h1>Acesso ao Consentir</h1>
          </CardHeader>
          <CardContent>
            <Tabs value={tab} onValueChange={(value) => setTab(value as "entrar" | "cadastrar")}>
              <TabsList className="mb-4 grid w-full grid-cols-2">
                <TabsTrigger value="entrar">Entrar</TabsTrigger>
                <TabsTrigger value="cadastrar">Cadastrar</TabsTrigger>
              </TabsList>
              <TabsContent value="entrar" className="grid gap-4">
                {createdEmail ? (
                  <Alert variant="success">
                    <CheckCircle2 />
                    <AlertDescription>{MESSAGES.success}</AlertDescription>
                  </Alert>
                ) : null}
                <SignInForm
                  key={createdEmail ?? "signin"}
                  defaultEmail={createdEmail ?? undefined}
                  onSignedIn={() => navigate("/", { replace: true })}
                />
              </TabsContent>
              <TabsContent value="cadastrar">
                {accountType === null ? (
                  <AccountTypeSelector onChoose={setAccountType} />
                ) : accountType === "estabelecimento" ? (
                  <EstablishmentWizard onBack={() => setAccountType(null)} onDone={onSignedUp} />
                ) : (
                  <ProfessionalForm onBack={() => setAccountType(null)} onDone={onSignedUp} />
                )}
              </TabsContent>
            </Tabs>
          </CardContent>
        </Card>
      </div>
    </main>
  );
}
