import { Tags } from "lucide-react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { DEFAULT_FIELDS, tagText } from "../lib/default-fields";

/** The four tags a template can use, and what each one is filled with (spec part 2 §2, §9). */
export function TemplateTagsCard() {
  return (
    <Card aria-labelledby="template-tags-title">
      <CardHeader>
        <CardTitle id="template-tags-title" className="flex items-center gap-2">
          <Tags className="size-4 text-muted-foreground" aria-hidden="true" /> Tags disponíveis
        </CardTitle>
        <CardDescription>
          Escreva estas tags no conteúdo de um template. Ao criar um documento, cada tag é substituída pelo texto salvo
          aqui.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-3" aria-label="Tags disponíveis">
          {DEFAULT_FIELDS.map((field) => (
            <div key={field.tag} className="grid gap-1">
              <dt>
                <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-sm break-all">{tagText(field.tag)}</code>
              </dt>
              <dd className="text-sm text-muted-foreground">
                {field.tagDescription} <span className="whitespace-nowrap">({field.label})</span>
              </dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
