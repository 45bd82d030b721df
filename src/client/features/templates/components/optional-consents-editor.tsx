import { ArrowDown, ArrowUp, Plus, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import {
  MAX_OPTIONAL_CONSENT_TEXT,
  MAX_OPTIONAL_CONSENT_TITLE,
  MAX_OPTIONAL_CONSENTS,
  type OptionalConsent,
  optionalConsentId,
} from "@shared/document-model/optional-consents";

/**
 * The template's separate optional consents (decision 057): add, edit, reorder and remove items
 * the patient answers Sim or Não. An item keeps the id it was created with, so the same item in a
 * later version is still the same item; the schema checks the limits on saving.
 */
export function OptionalConsentsEditor({
  value,
  onChange,
  disabled,
}: {
  value: readonly OptionalConsent[];
  onChange: (next: OptionalConsent[]) => void;
  disabled?: boolean;
}) {
  const full = value.length >= MAX_OPTIONAL_CONSENTS;
  const update = (id: string, patch: Partial<OptionalConsent>) =>
    onChange(value.map((item) => (item.id === id ? { ...item, ...patch } : item)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...value];
    const [item] = next.splice(index, 1);
    next.splice(index + by, 0, item!);
    onChange(next);
  };
  const add = () =>
    onChange([
      ...value,
      {
        id: optionalConsentId(
          `opcional-${value.length + 1}`,
          value.map((item) => item.id),
        ),
        title: "",
        text: "",
      },
    ]);

  return (
    <Card className="gap-4 py-4" data-testid="optional-consents-editor">
      <CardHeader className="px-4 sm:px-6">
        <CardTitle className="text-base">Consentimentos opcionais</CardTitle>
        <p className="text-sm text-muted-foreground">
          Autorizações à parte, como o uso de imagem: o paciente responde Sim ou Não a cada uma, sem que isso mude o
          consentimento do termo. No máximo {MAX_OPTIONAL_CONSENTS}.
        </p>
      </CardHeader>
      <CardContent className="grid gap-4 px-4 sm:px-6">
        {value.map((item, index) => {
          const n = index + 1;
          const id = `opcional-${index}`;
          return (
            <div
              key={item.id}
              role="group"
              aria-label={`Consentimento opcional ${n}`}
              className="grid gap-3 rounded-lg border p-3"
              data-testid="optional-consent-item"
            >
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="text-sm font-semibold">Consentimento opcional {n}</p>
                <div className="flex items-center gap-1">
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon"
                    aria-label={`Mover consentimento opcional ${n} para cima`}
                    title="Mover para cima"
                    disabled={disabled || index === 0}
                    onClick={() => move(index, -1)}
                  >
                    <ArrowUp />
                  </Button>
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon"
                    aria-label={`Mover consentimento opcional ${n} para baixo`}
                    title="Mover para baixo"
                    disabled={disabled || index === value.length - 1}
                    onClick={() => move(index, 1)}
                  >
                    <ArrowDown />
                  </Button>
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon"
                    aria-label={`Remover consentimento opcional ${n}`}
                    title="Remover"
                    className="text-destructive hover:bg-destructive/10 hover:text-destructive"
                    disabled={disabled}
                    onClick={() => onChange(value.filter((other) => other.id !== item.id))}
                  >
                    <Trash2 />
                  </Button>
                </div>
              </div>
              <FormField label="Título" htmlFor={`${id}-title`}>
                <Input
                  value={item.title}
                  onChange={(event) => update(item.id, { title: event.target.value })}
                  maxLength={MAX_OPTIONAL_CONSENT_TITLE}
                  placeholder="Ex.: Uso de imagem para divulgação"
                  disabled={disabled}
                />
              </FormField>
              <FormField label="Texto" htmlFor={`${id}-text`}>
                <Textarea
                  value={item.text}
                  onChange={(event) => update(item.id, { text: event.target.value })}
                  maxLength={MAX_OPTIONAL_CONSENT_TEXT}
                  rows={3}
                  placeholder="O que o paciente autoriza ao responder Sim"
                  disabled={disabled}
                />
              </FormField>
            </div>
          );
        })}
        <Button type="button" variant="outline" className="w-full sm:w-fit" disabled={disabled || full} onClick={add}>
          <Plus /> Adicionar consentimento opcional
        </Button>
      </CardContent>
    </Card>
  );
}
