import { Download, UsersRound } from "lucide-react";
import { Link } from "react-router";
import { toast } from "sonner";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { errorMessage } from "@/lib/api";
import {
  FEEGOW_IMPORT_MESSAGES,
  FEEGOW_MESSAGES,
  type FeegowImportInput,
  type FeegowProfessionalRow,
} from "@shared/schemas/feegow";
import { USER_MESSAGES } from "@shared/schemas/users";
import { useFeegowProfessionals, useImportFeegowProfessionals } from "../api/feegow-imports-api";

const STATE: Record<
  FeegowProfessionalRow["situacao"],
  { label: string; variant: "success" | "secondary" | "warning" }
> = {
  novo: { label: "Novo", variant: "secondary" },
  existente: { label: "Já é usuário", variant: "success" },
  incompleto: { label: "Incompleto", variant: "warning" },
};

/**
 * /integration, professionals switch on (establishments; the owner, who manages users): Feegow's
 * active professionals, which are users already (same CPF), "Importar" per row and "Importar
 * todos" — each new one is invited by e-mail to choose a password.
 */
export function FeegowProfessionalsCard({ isOwner, isEstablishment }: { isOwner: boolean; isEstablishment: boolean }) {
  const allowed = isOwner && isEstablishment;
  const list = useFeegowProfessionals(allowed);
  const importer = useImportFeegowProfessionals();
  const pendingIds = importer.isPending ? (importer.variables?.ids ?? "todos") : null;

  async function run(input: FeegowImportInput) {
    try {
      const result = await importer.mutateAsync(input);
      const description = [
        `${result.criados} convidado(s) por e-mail`,
        `${result.existentes} já era(m) usuário(s)`,
        ...result.ignorados.map((item) => `${item.nome}: ${item.motivo}`),
      ].join(" · ");
      toast.success(FEEGOW_IMPORT_MESSAGES.professionalsImported, { description });
    } catch (error) {
      toast.error(FEEGOW_IMPORT_MESSAGES.importError, { description: errorMessage(error) });
    }
  }

  const items = list.data?.items ?? [];
  const importable = items.filter((item) => item.situacao === "novo").length;
  return (
    <Card data-testid="feegow-professionals">
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle className="flex items-center gap-2 text-base">
            <UsersRound className="size-4 text-primary" aria-hidden /> Profissionais do Feegow
          </CardTitle>
          {allowed ? (
            <Button
              size="sm"
              onClick={() => void run({ todos: true })}
              disabled={importer.isPending || importable === 0}
            >
              {pendingIds === "todos" ? <Spinner /> : <Download />} Importar todos
            </Button>
          ) : null}
        </div>
        <CardDescription>
          Cada profissional importado vira um usuário da clínica e recebe um convite por e-mail para criar a própria
          senha. Quem já é usuário (mesmo CPF) não é duplicado. Funções e dados podem ser ajustados em{" "}
          <Link to="/users" className="underline">
            Usuários
          </Link>
          .
        </CardDescription>
      </CardHeader>
      <CardContent>
        {!isEstablishment ? (
          <p className="text-sm text-muted-foreground">{FEEGOW_MESSAGES.establishmentsOnly}</p>
        ) : !isOwner ? (
          <Alert>
            <AlertTitle>{USER_MESSAGES.accessDenied}</AlertTitle>
            <AlertDescription>{USER_MESSAGES.ownersOnly}</AlertDescription>
          </Alert>
        ) : list.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : list.isError ? (
          <Alert variant="destructive">
            <AlertTitle>{FEEGOW_MESSAGES.professionalsError}</AlertTitle>
            <AlertDescription>{errorMessage(list.error)}</AlertDescription>
          </Alert>
        ) : items.length === 0 ? (
          <p className="text-sm text-muted-foreground">O Feegow não tem profissionais ativos.</p>
        ) : (
          <Table aria-label="Profissionais do Feegow">
            <TableHeader>
              <TableRow className="hover:bg-transparent">
                <TableHead>Profissional</TableHead>
                <TableHead className="hidden sm:table-cell">Conselho</TableHead>
                <TableHead>Situação</TableHead>
                <TableHead className="w-28">
                  <span className="sr-only">Ações</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {items.map((item) => (
                <TableRow key={item.feegow_id} data-testid="feegow-professional-row">
                  <TableCell className="max-w-64">
                    <span className="block truncate font-medium">{item.nome}</span>
                    <span className="block truncate text-xs text-muted-foreground">
                      {[item.email, item.cpf].filter(Boolean).join(" · ")}
                    </span>
                    {item.motivo ? (
                      <span className="block text-xs whitespace-normal text-muted-foreground">{item.motivo}</span>
                    ) : null}
                  </TableCell>
                  <TableCell className="hidden sm:table-cell">{item.conselho ?? "—"}</TableCell>
                  <TableCell>
                    <Badge variant={STATE[item.situacao].variant}>{STATE[item.situacao].label}</Badge>
                  </TableCell>
                  <TableCell className="text-right">
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => void run({ ids: [item.feegow_id] })}
                      disabled={importer.isPending || item.situacao !== "novo"}
                      aria-label={`Importar ${item.nome}`}
                    >
                      {Array.isArray(pendingIds) && pendingIds.includes(item.feegow_id) ? <Spinner /> : null} Importar
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
