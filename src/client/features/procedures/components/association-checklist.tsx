import { ListChecks } from "lucide-react";
import { useId, useState } from "react";
import { Link } from "react-router";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { Skeleton } from "@/components/ui/skeleton";
import { useContentItems } from "@/features/content";
import { selectedLabel } from "@/features/content";
import { errorMessage } from "@/lib/api";
import { CONTENT_KIND_LABEL, CONTENT_MESSAGES, type ContentKind } from "@shared/schemas/content";
import { filterItems } from "../lib/filter-items";
import { SearchBox } from "./search-box";

/** One kind's items with a checkbox each, a search inside the list and the count chosen. */
export function AssociationChecklist({
  kind,
  selected,
  onToggle,
  disabled,
}: {
  kind: ContentKind;
  selected: ReadonlySet<string>;
  onToggle: (id: string, checked: boolean) => void;
  disabled: boolean;
}) {
  const list = useContentItems(kind, "");
  const [term, setTerm] = useState("");
  const baseId = useId();
  const label = CONTENT_KIND_LABEL[kind];
  const items = list.data ? filterItems(list.data.items, term) : [];

  return (
    <Card className="min-w-0 gap-3 py-4" role="group" aria-label={label} data-testid={`checklist-${kind}`}>
      <CardHeader className="flex flex-row items-center justify-between gap-2 px-4">
        <CardTitle className="text-base">{label}</CardTitle>
        <Badge variant={selected.size > 0 ? "default" : "secondary"} aria-live="polite">
          {selectedLabel(selected.size)}
        </Badge>
      </CardHeader>
      <CardContent className="grid gap-3 px-4">
        <SearchBox
          value={term}
          onChange={setTerm}
          placeholder={`Buscar em ${label.toLowerCase()}...`}
          label={`Buscar em ${label}`}
        />
        {list.isPending ? (
          <div className="grid gap-2" aria-busy="true">
            <Skeleton className="h-5 w-3/4" />
            <Skeleton className="h-5 w-2/3" />
            <Skeleton className="h-5 w-1/2" />
          </div>
        ) : list.isError ? (
          <p className="text-sm text-destructive" role="alert">
            {CONTENT_MESSAGES.loadError}: {errorMessage(list.error)}
          </p>
        ) : list.data.items.length === 0 ? (
          <div className="grid justify-items-center gap-2 rounded-md border border-dashed px-3 py-6 text-center text-sm text-muted-foreground">
            <ListChecks className="size-5" aria-hidden />
            <p>{CONTENT_MESSAGES.empty}</p>
            <Link
              to={`/content-management?aba=${kind}`}
              className="font-medium text-primary underline-offset-4 hover:underline"
            >
              Cadastrar em Gestão de Conteúdo
            </Link>
          </div>
        ) : items.length === 0 ? (
          <p className="py-4 text-center text-sm text-muted-foreground">{CONTENT_MESSAGES.emptySearch(term.trim())}</p>
        ) : (
          <ul className="grid max-h-80 gap-1 overflow-y-auto pr-1">
            {items.map((item) => {
              const id = `${baseId}-${item.id}`;
              const tag = kind === "cuidados" ? item.periodo : item.categoria;
              return (
                <li key={item.id}>
                  <label
                    htmlFor={id}
                    className="flex cursor-pointer items-start gap-3 rounded-md px-2 py-2 hover:bg-muted/60 has-[button:disabled]:cursor-not-allowed"
                  >
                    <Checkbox
                      id={id}
                      className="mt-0.5"
                      checked={selected.has(item.id)}
                      onCheckedChange={(checked) => onToggle(item.id, checked === true)}
                      disabled={disabled}
                      aria-label={item.titulo}
                    />
                    <span className="grid min-w-0 gap-0.5">
                      <span className="text-sm leading-tight font-medium break-words">{item.titulo}</span>
                      <span className="line-clamp-2 text-xs text-muted-foreground">
                        {tag ? `${tag} · ` : ""}
                        {item.descricao}
                      </span>
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        )}
        {list.data?.truncated ? (
          <p className="text-xs text-muted-foreground">Mostrando os primeiros {list.data.items.length} itens.</p>
        ) : null}
      </CardContent>
    </Card>
  );
}
