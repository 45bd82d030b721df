import { useMutation, useQueryClient } from "@tanstack/react-query";
import { FileX2 } from "lucide-react";
import { useId, useState } from "react";
import { Alert, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/textarea";
import { api, errorMessage } from "@/lib/api";
import { CHOICE_MESSAGES, MAX_REASON, type StaffChoiceInput } from "@shared/schemas/choices";
import type { DocumentDetail } from "@shared/schemas/document";

/**
 * Staff record what the patient told them in person or by phone (decision 056): a refusal of an
 * unsigned document, or the revocation of a signed one. The server records who (the session) and
 * seals the record.
 */
export function RecordChoicePanel({ doc, canWrite }: { doc: DocumentDetail; canWrite: boolean }) {
  const ids = { meio: useId(), motivo: useId(), alvo: useId() };
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [meio, setMeio] = useState<StaffChoiceInput["meio"]>("presencial");
  const [motivo, setMotivo] = useState("");
  // A revocation: of the whole consent ("") or of one optional consent answered "Sim" (decision 057).
  const [itemId, setItemId] = useState("");
  const revocableItems = (doc.consentimentos_opcionais ?? []).filter((a) => a.aceito && !a.revogado_em);
  const tipo =
    doc.status === "signed" && !doc.revogado_at
      ? "revogacao"
      : ["draft", "sent", "viewed", "expired"].includes(doc.status)
        ? "recusa"
        : null;
  const record = useMutation({
    mutationFn: (body: StaffChoiceInput) =>
      api<unknown>(
        `/api/documents/${encodeURIComponent(doc.id)}/${
          tipo === "recusa"
            ? "refusal"
            : itemId
              ? `optional-consents/${encodeURIComponent(itemId)}/revocation`
              : "revocation"
        }`,
        { method: "POST", body },
      ),
    onSuccess: () => {
      setOpen(false);
      setItemId("");
      void queryClient.invalidateQueries({ queryKey: ["documents"] });
    },
  });
  if (!canWrite || !tipo) return null;
  const label =
    tipo === "recusa"
      ? "Registrar recusa do paciente"
      : revocableItems.length > 0
        ? "Registrar revogação"
        : "Registrar revogação do consentimento";
  if (!open)
    return (
      <div>
        <Button variant="outline" onClick={() => setOpen(true)} data-testid="record-choice-open">
          <FileX2 /> {label}
        </Button>
      </div>
    );
  return (
    <form
      className="grid max-w-xl gap-3 rounded-lg border p-4"
      data-testid="record-choice"
      onSubmit={(event) => {
        event.preventDefault();
        record.mutate({ meio, ...(motivo.trim() ? { motivo: motivo.trim() } : {}) });
      }}
    >
      <h2 className="text-base font-semibold">{label}</h2>
      <p className="text-sm text-muted-foreground">
        {tipo === "recusa"
          ? "O paciente informou à equipe que não concorda com o documento. O link deixa de aceitar assinatura."
          : itemId
            ? "O paciente informou à equipe que revoga só esta autorização opcional; o consentimento principal e as outras respostas continuam valendo. Um registro selado da revogação é gerado."
            : "O paciente informou à equipe que revoga o consentimento. O PDF assinado não muda; um registro selado da revogação é gerado."}
      </p>
      {tipo === "revogacao" && revocableItems.length > 0 ? (
        <>
          <label htmlFor={ids.alvo} className="text-sm font-medium">
            O que o paciente revoga
          </label>
          <select
            id={ids.alvo}
            value={itemId}
            onChange={(event) => setItemId(event.target.value)}
            className="h-9 rounded-md border bg-background px-3 text-sm"
            data-testid="record-choice-target"
          >
            <option value="">Todo o consentimento</option>
            {revocableItems.map((item) => (
              <option key={item.id} value={item.id}>
                Só a autorização “{item.titulo}”
              </option>
            ))}
          </select>
        </>
      ) : null}
      <label htmlFor={ids.meio} className="text-sm font-medium">
        Como o paciente comunicou
      </label>
      <select
        id={ids.meio}
        value={meio}
        onChange={(event) => setMeio(event.target.value as StaffChoiceInput["meio"])}
        className="h-9 rounded-md border bg-background px-3 text-sm"
      >
        <option value="presencial">Pessoalmente</option>
        <option value="telefone">Por telefone</option>
      </select>
      <label htmlFor={ids.motivo} className="text-sm font-medium">
        {CHOICE_MESSAGES.reasonLabel}
      </label>
      <Textarea id={ids.motivo} value={motivo} maxLength={MAX_REASON} onChange={(e) => setMotivo(e.target.value)} />
      {record.isError ? (
        <Alert variant="destructive">
          <AlertTitle>{errorMessage(record.error)}</AlertTitle>
        </Alert>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" variant="destructive" disabled={record.isPending}>
          {tipo === "recusa" ? "Registrar recusa" : "Registrar revogação"}
        </Button>
        <Button type="button" variant="outline" onClick={() => setOpen(false)} disabled={record.isPending}>
          Voltar
        </Button>
      </div>
    </form>
  );
}
