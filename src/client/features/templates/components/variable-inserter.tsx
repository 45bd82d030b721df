import { Search } from "lucide-react";
import { useId, useState } from "react";
import { Input } from "@/components/ui/input";
import { VARIABLE_GROUPS } from "@shared/document-model/variables";
import { matchesVariable } from "../lib/sections";

/**
 * The variable inserter (spec part 2 §2 Template editor): search on the names, grouped list
 * (max height 16rem). Buttons do not take focus on mouse down, so the text field keeps its caret.
 */
export function VariableInserter({
  onInsert,
  targetLabel,
}: {
  onInsert: (name: string) => void;
  targetLabel: string | null;
}) {
  const [search, setSearch] = useState("");
  const searchId = useId();
  const groups = VARIABLE_GROUPS.map((group) => ({
    ...group,
    variables: group.variables.filter((v) => matchesVariable(v.name, search)),
  })).filter((group) => group.variables.length > 0);

  return (
    <div className="grid gap-3" data-testid="variable-inserter">
      <div className="grid gap-1">
        <h3 className="text-sm font-semibold" id={`${searchId}-title`}>
          Inserir variável
        </h3>
        <p className="text-xs text-muted-foreground" aria-live="polite">
          {targetLabel
            ? `Será inserida em: ${targetLabel}`
            : "Clique na introdução ou no conteúdo de uma seção e escolha a variável."}
        </p>
      </div>
      <div className="relative">
        <Search
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          aria-hidden
        />
        <Input
          id={searchId}
          type="search"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder="Buscar variável..."
          aria-label="Buscar variável"
          className="pl-9"
          maxLength={60}
        />
      </div>
      <div className="max-h-64 overflow-y-auto rounded-md border" aria-labelledby={`${searchId}-title`} role="group">
        {groups.length === 0 ? (
          <p className="p-3 text-sm text-muted-foreground">Nenhuma variável encontrada</p>
        ) : (
          groups.map((group) => (
            <div key={group.id} role="group" aria-label={group.label} className="border-b last:border-b-0">
              <p className="sticky top-0 bg-muted px-3 py-1 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
                {group.label}
              </p>
              <ul className="grid py-1">
                {group.variables.map((variable) => (
                  <li key={variable.name}>
                    <button
                      type="button"
                      onMouseDown={(event) => event.preventDefault()}
                      onClick={() => onInsert(variable.name)}
                      className="grid w-full gap-0.5 px-3 py-1.5 text-left hover:bg-accent focus-visible:bg-accent focus-visible:outline-none"
                      // The name holds the visible text in order (WCAG 2.5.3): "Inserir {{x}} — Nome do paciente".
                      aria-label={`Inserir {{${variable.name}}} — ${variable.label}`}
                    >
                      <code className="font-mono text-xs break-all text-primary">{`{{${variable.name}}}`}</code>
                      <span className="text-xs text-muted-foreground">{variable.label}</span>
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          ))
        )}
      </div>
    </div>
  );
}
