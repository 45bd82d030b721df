import { DatabaseBackup } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";
import { useCurrentUser } from "@/features/auth";
import { profileCan } from "@shared/permissions";
import { RETENTION_MESSAGES } from "@shared/retention/retention-rule";
import { DATA_RIGHTS_MESSAGES } from "@shared/schemas/data-rights";

/**
 * "Exportar todos os dados da clínica" (owner only, decision 026): a plain link, so the browser
 * streams the ZIP to disk however large the clinic is. Administrators see why they cannot.
 */
export function ClinicExportCard() {
  const { data: user } = useCurrentUser();
  const [withFiles, setWithFiles] = useState(true);
  const checkboxId = useId();
  const canExport = profileCan(user?.profile, "clinic.export");
  return (
    <Card className="max-w-3xl" data-testid="clinic-export">
      <CardHeader>
        <CardTitle className="text-base">Exportação dos dados</CardTitle>
        <CardDescription>{DATA_RIGHTS_MESSAGES.exportClinicHint}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {canExport ? (
          <>
            <div className="flex items-center gap-2">
              <Checkbox id={checkboxId} checked={withFiles} onCheckedChange={(value) => setWithFiles(value === true)} />
              <Label htmlFor={checkboxId}>Incluir os arquivos (PDFs assinados e imagens das assinaturas)</Label>
            </div>
            <div>
              <Button asChild variant="outline">
                <a
                  href={`/api/settings/export?arquivos=${withFiles ? "sim" : "nao"}`}
                  download
                  onClick={() => toast.success(DATA_RIGHTS_MESSAGES.exportStarted)}
                >
                  <DatabaseBackup /> {DATA_RIGHTS_MESSAGES.exportClinic}
                </a>
              </Button>
            </div>
            <p className="text-xs text-muted-foreground">
              A exportação fica registrada na trilha de auditoria. O arquivo tem dados de saúde de todos os pacientes:
              guarde-o cifrado e com acesso restrito. {RETENTION_MESSAGES.rule}
            </p>
          </>
        ) : (
          <p className="text-sm text-muted-foreground">{DATA_RIGHTS_MESSAGES.exportClinicOwnerOnly}</p>
        )}
      </CardContent>
    </Card>
  );
}
