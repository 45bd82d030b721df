import { Trash2 } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Skeleton } from "@/components/ui/skeleton";
import { ApiError } from "@/lib/api";
import { SETTINGS_MESSAGES } from "@shared/schemas/clinic-settings";
import { EMBED_MESSAGES, MAX_EMBED_ORIGINS, parseEmbedOrigin } from "@shared/schemas/embedding";
import { useEmbedSettings, useSaveEmbedSettings } from "../api/embedding-api";

/**
 * Configurações → Sites autorizados a incorporar a assinatura (decision 071): the clinic's own
 * systems that may show the signing page inside them. Empty: the page opens only on its own.
 */
export function EmbedSettingsCard({ canManage }: { canManage: boolean }) {
  const settings = useEmbedSettings(canManage);
  const save = useSaveEmbedSettings();
  const [typed, setTyped] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  if (!canManage) return null;

  async function store(origens: string[]): Promise<boolean> {
    try {
      await save.mutateAsync({ origens });
      toast.success(SETTINGS_MESSAGES.saved);
      return true;
    } catch (error) {
      const message = error instanceof ApiError ? error.message : "erro inesperado";
      setProblem(message);
      toast.error(SETTINGS_MESSAGES.saveError(message));
      return false;
    }
  }

  async function add(event: React.FormEvent) {
    event.preventDefault();
    const current = settings.data?.origens ?? [];
    const parsed = parseEmbedOrigin(typed.trim());
    if (!typed.trim()) return setProblem(EMBED_MESSAGES.originRequired);
    if ("error" in parsed) return setProblem(parsed.error);
    if (current.includes(parsed.origin)) return setProblem("Este site já está na lista");
    if (current.length >= MAX_EMBED_ORIGINS) return setProblem(EMBED_MESSAGES.tooMany);
    setProblem(null);
    if (await store([...current, parsed.origin])) setTyped("");
  }

  return (
    <Card className="max-w-3xl" data-testid="embed-settings">
      <CardHeader>
        <CardTitle className="text-base">Sites autorizados a incorporar a assinatura</CardTitle>
        <CardDescription>
          O sistema da clínica pode mostrar a página de assinatura dentro das suas próprias telas. Só os sites desta
          lista conseguem; sem nenhum, a assinatura abre apenas pelo link.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {settings.isPending ? (
          <Skeleton className="h-10 w-full" />
        ) : settings.isError ? (
          <p className="text-sm text-destructive">Não foi possível carregar os sites autorizados.</p>
        ) : (
          <>
            {settings.data.origens.length === 0 ? (
              <p className="text-sm text-muted-foreground" data-testid="embed-origins-empty">
                Nenhum site autorizado.
              </p>
            ) : (
              <ul className="grid gap-2" data-testid="embed-origins">
                {settings.data.origens.map((origin) => (
                  <li key={origin} className="flex items-center justify-between gap-3 rounded-md border px-3 py-2">
                    <span className="font-mono text-sm break-all">{origin}</span>
                    <Button
                      type="button"
                      variant="ghost"
                      size="sm"
                      disabled={save.isPending}
                      onClick={() => void store(settings.data.origens.filter((o) => o !== origin))}
                      aria-label={`Remover ${origin}`}
                    >
                      <Trash2 className="size-4" aria-hidden /> Remover
                    </Button>
                  </li>
                ))}
              </ul>
            )}
            <form className="grid gap-2" onSubmit={(event) => void add(event)} noValidate>
              <Label htmlFor={id}>Adicionar site</Label>
              <div className="flex flex-wrap gap-2">
                <Input
                  id={id}
                  value={typed}
                  onChange={(event) => (setTyped(event.target.value), setProblem(null))}
                  placeholder="https://sistema.suaclinica.com.br"
                  inputMode="url"
                  autoComplete="off"
                  aria-invalid={problem ? true : undefined}
                  aria-describedby={`${id}-help`}
                  className="min-w-0 flex-1"
                />
                <Button type="submit" disabled={save.isPending}>
                  Adicionar
                </Button>
              </div>
              <p id={`${id}-help`} className={problem ? "text-sm text-destructive" : "text-sm text-muted-foreground"}>
                {problem ??
                  `Só o início do endereço (protocolo, domínio e porta), com https://. Até ${MAX_EMBED_ORIGINS} sites.`}
              </p>
            </form>
          </>
        )}
      </CardContent>
    </Card>
  );
}
