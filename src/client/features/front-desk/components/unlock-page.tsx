import { Lock } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { ApiError, api, errorMessage } from "@/lib/api";
import { useUnlockDevice } from "../api/front-desk-api";
import { useDocumentTitle } from "@/lib/use-document-title";

/**
 * /desbloquear — the device came back from the patient (front-desk signing). Until the
 * staff member who handed it over types their password, every API call answers 423 and the app
 * shows only this screen; "Sair" ends the session instead.
 */
export function UnlockPage() {
  useDocumentTitle("Desbloquear");
  const navigate = useNavigate();
  const unlock = useUnlockDevice();
  const [senha, setSenha] = useState("");
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!senha) {
      setError("Digite a sua senha");
      return;
    }
    try {
      await unlock.mutateAsync(senha);
      navigate("/sign", { replace: true });
    } catch (failure) {
      setSenha("");
      if (failure instanceof ApiError && failure.status === 401) navigate("/auth", { replace: true });
      else
        setError(failure instanceof ApiError && failure.issues[0] ? failure.issues[0].message : errorMessage(failure));
    }
  };

  const signOut = async () => {
    await api("/api/auth/sign-out", { body: {} }).catch(() => undefined);
    window.location.assign("/auth");
  };

  return (
    <main className="grid min-h-svh place-items-center p-4">
      <Card className="w-full max-w-sm">
        <CardHeader className="justify-items-center text-center">
          <span className="grid size-12 place-items-center rounded-full bg-primary/10 text-primary">
            <Lock className="size-6" aria-hidden />
          </span>
          <CardTitle>
            <h1 className="text-xl">Aparelho bloqueado</h1>
          </CardTitle>
          <CardDescription>
            Este aparelho foi entregue ao paciente para assinatura. Para voltar ao sistema, digite a senha de quem o
            entregou.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form
            onSubmit={(event) => void submit(event)}
            noValidate
            className="grid gap-4"
            aria-label="Desbloquear aparelho"
          >
            <FormField label="Sua senha" htmlFor="unlock-senha" error={error ?? undefined}>
              <Input
                type="password"
                autoComplete="current-password"
                value={senha}
                onChange={(event) => setSenha(event.target.value)}
                autoFocus
              />
            </FormField>
            <Button type="submit" size="lg" disabled={unlock.isPending}>
              {unlock.isPending ? "Desbloqueando…" : "Desbloquear"}
            </Button>
            <Button type="button" variant="ghost" onClick={() => void signOut()}>
              Sair
            </Button>
          </form>
        </CardContent>
      </Card>
    </main>
  );
}
