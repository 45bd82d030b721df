import { Download, ListChecks } from "lucide-react";
import { toast } from "sonner";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { errorMessage } from "@/lib/api";
import { FEEGOW_IMPORT_MESSAGES, type FeegowImportInput, type FeegowProcedureRow } from "@shared/schemas/feegow";
import { useFeegowProcedures, useImportFeegowProcedures } from "../api/feegow-imports-api";

const STATE: Record<FeegowProcedureRow["situacao"], { label: string; variant: "success" | "secondary" | "warning" }> = {
  novo: { label: "Novo", variant: "secondary" },
  importado: { label: "Já importado", variant: "success" },
  desatualizado: { label: "Existe — atualizar valor", variant: "warning" },
};

/** /integration, procedures switch on: Feegow's procedures beside ours, "Importar" per row and "Importar todos". */
export function FeegowProceduresCard() {
  const list = useFeegowProcedures(true);
  const importer = useImportFeegowProcedures();
  const pendingIds = importer.isPending ? (importer.variables?.ids ?? "todos") : null;

  async function run(input: FeegowImportInput) {
    try {
      const result = await importer.mutateAsync(input);
      const parts = [
        `${result.criados} criado(s)`,
        `${result.atualizados} atualizado(s)`,
        `${result.inalterados} sem mudança`,
      ];
      toast.success(FEEGOW_IMPORT_MESSAGES.proceduresImported, { description: parts.join(", ") });
    } catch (error) {
      toast.error(FEEGOW_IMPORT_MESSAGES.importError, { description: errorMessage(error) });
    }
  }

  const items = list.data?.items ?? [];
  const pending = items.filter((item) => item.situacao !== "importado").length;
  return (
    <Card data-testid="feegow-procedures">
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle className="flex items-center gap-2 text-base">
            <ListChecks className="size-4 text-primary" aria-hidden /> Procedimentos do Feegow
          </CardTitle>
          <Button
            size="sm"
            onClick={() => void run({ todos: true })}
            disabled={importer.isPending || pending === 0 || !list.data}
          >
            {pendingIds === "todos" ? <Spinner /> : <Download />} Importar todos
          </Button>
        </div>
        <CardDescription>
          Procedimentos com o mesmo nome (sem diferenciar maiúsculas, acentos e espaços) não são duplicados: recebem o
          valor do Feegow. Importar de novo atualiza os valores.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {list.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : list.isError ? (
          <Alert variant="destructive">
            <AlertTitle>{FEEGOW_IMPORT_MESSAGES.proceduresError}</AlertTitle>
            <AlertDescription>{errorMessage(list.error)}</AlertDescription>
          </Alert>
        ) : items.length === 0 ? (
          <p className="text-sm text-muted-foreground">O Feegow não tem procedimentos cadastrados.</p>
        ) : (
          <Table aria-label="Procedimentos do Feegow">
            <TableHeader>
              <TableRow className="hover:bg-transparent">
                <TableHead>Procedimento</TableHead>
                <TableHead className="text-right">Valor</TableHead>
                <TableHead>Situação</TableHead>
                <TableHead className="w-28">
                  <span className="sr-only">Ações</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {items.map((item) => (
                <TableRow key={item.feegow_id} data-testid="feegow-procedure-row">
                  <TableCell className="max-w-64 truncate font-medium">{item.nome}</TableCell>
                  <TableCell className="text-right tabular-nums">{item.valor ?? "—"}</TableCell>
                  <TableCell>
                    <Badge variant={STATE[item.situacao].variant}>{STATE[item.situacao].label}</Badge>
                  </TableCell>
                  <TableCell className="text-right">
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => void run({ ids: [item.feegow_id] })}
                      disabled={importer.isPending || item.situacao === "importado"}
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
