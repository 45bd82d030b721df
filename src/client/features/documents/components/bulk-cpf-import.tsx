import { Upload } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { cpfsFromText } from "@shared/schemas/bulk-send";

const MAX_FILE_BYTES = 1024 * 1024;

/**
 * CPFs pasted or read from a CSV/TXT file in the browser (one per line, the first cell that
 * looks like a CPF): only the CPFs travel to the server, which checks each one.
 */
export function BulkCpfImport({ cpfs, onChange }: { cpfs: string[]; onChange: (next: string[]) => void }) {
  const [textValue, setTextValue] = useState(cpfs.join("\n"));
  const [fileError, setFileError] = useState<string | null>(null);
  const textId = useId();
  const fileId = useId();

  const update = (value: string) => {
    setTextValue(value);
    onChange(cpfsFromText(value));
  };

  async function onFile(file: File | undefined) {
    setFileError(null);
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      setFileError("O arquivo deve ter no máximo 1 MB.");
      return;
    }
    const content = await file.text();
    const found = cpfsFromText(content);
    if (found.length === 0) {
      setFileError("Nenhum CPF encontrado no arquivo. Use um CPF por linha.");
      return;
    }
    update([textValue.trim(), found.join("\n")].filter(Boolean).join("\n"));
  }

  return (
    <div className="grid gap-3" data-testid="bulk-cpf-import">
      <div className="grid gap-1.5">
        <Label htmlFor={textId}>CPFs, um por linha</Label>
        <Textarea
          id={textId}
          rows={6}
          value={textValue}
          onChange={(event) => update(event.target.value)}
          placeholder={"529.982.247-25\n111.444.777-35"}
          className="font-mono"
        />
        <p className="text-xs text-muted-foreground" data-testid="bulk-cpf-count">
          {cpfs.length === 1 ? "1 CPF na lista" : `${cpfs.length} CPFs na lista`}. Só pacientes já cadastrados recebem
          documento; CPFs inválidos ou sem cadastro aparecem no resultado.
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <input
          id={fileId}
          type="file"
          accept=".csv,.txt,text/csv,text/plain"
          className="sr-only"
          onChange={(event) => {
            void onFile(event.target.files?.[0]);
            event.target.value = "";
          }}
          data-testid="bulk-cpf-file"
        />
        <Button variant="outline" size="sm" asChild>
          <label htmlFor={fileId} className="cursor-pointer">
            <Upload /> Importar CSV
          </label>
        </Button>
        {fileError ? (
          <p className="text-sm text-destructive" role="alert">
            {fileError}
          </p>
        ) : null}
      </div>
    </div>
  );
}
