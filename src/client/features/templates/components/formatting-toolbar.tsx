import { Bold, Italic, List, ListOrdered } from "lucide-react";
import { Button } from "@/components/ui/button";

export type FormattingCommand = "bold" | "italic" | "bullet" | "numbered";

const BUTTONS: ReadonlyArray<{
  command: FormattingCommand;
  label: string;
  shortcut?: string;
  icon: typeof Bold;
  list?: true;
}> = [
  { command: "bold", label: "Negrito", shortcut: "Ctrl+B", icon: Bold },
  { command: "italic", label: "Itálico", shortcut: "Ctrl+I", icon: Italic },
  { command: "bullet", label: "Lista", icon: List, list: true },
  { command: "numbered", label: "Lista numerada", icon: ListOrdered, list: true },
];

/**
 * The formatting toolbar of a section's content (decision 034): it writes markers into the text
 * (**negrito**, *itálico*, "- " and "1. " lines), never HTML. Buttons do not take focus on mouse
 * down, so the textarea keeps its selection.
 */
export function FormattingToolbar({
  label,
  lists,
  disabled,
  onCommand,
}: {
  /** Accessible name of the toolbar, e.g. "Formatação da seção 1". */
  label: string;
  /** Offer the list buttons (paragraph sections only: list sections are lists already). */
  lists: boolean;
  disabled?: boolean;
  onCommand: (command: FormattingCommand) => void;
}) {
  return (
    <div
      role="toolbar"
      aria-label={label}
      className="flex flex-wrap items-center gap-0.5 rounded-md border bg-muted/40 p-0.5"
      onKeyDown={(event) => {
        // Arrow keys move between the buttons (WAI-ARIA toolbar pattern).
        if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
        const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>("button:not(:disabled)")];
        const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
        if (index < 0) return;
        event.preventDefault();
        buttons[(index + (event.key === "ArrowRight" ? 1 : buttons.length - 1)) % buttons.length]?.focus();
      }}
    >
      {BUTTONS.filter((button) => lists || !button.list).map(({ command, label: name, shortcut, icon: Icon }) => (
        <Button
          key={command}
          type="button"
          variant="ghost"
          size="icon"
          className="size-8"
          aria-label={name}
          aria-keyshortcuts={shortcut?.replace("Ctrl", "Control")}
          title={shortcut ? `${name} (${shortcut})` : name}
          disabled={disabled}
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => onCommand(command)}
        >
          <Icon aria-hidden />
        </Button>
      ))}
      <span className="ml-auto hidden px-2 text-xs text-muted-foreground sm:inline">
        **negrito**, *itálico*, “- ” lista, “1. ” numerada
      </span>
    </div>
  );
}
