import { type ReactNode, useCallback, useEffect, useRef } from "react";
import { type BlockerFunction, useBlocker } from "react-router";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";

export const UNSAVED_CHANGES_MESSAGES = {
  title: "Sair sem salvar?",
  description: "As alterações feitas neste formulário ainda não foram salvas. Se você sair agora, elas serão perdidas.",
  stay: "Continuar editando",
  leave: "Sair sem salvar",
} as const;

/**
 * Warns before a form with unsaved changes is left: a confirm dialog for navigation inside the app
 * (React Router's blocker) and the browser's own prompt for a reload, a closed tab or another site.
 * Call `release()` right before navigating away after a successful save.
 */
export function useUnsavedChanges(dirty: boolean): { release: () => void; dialog: ReactNode } {
  const state = useRef({ dirty, released: false });
  state.current.dirty = dirty;

  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) =>
      state.current.dirty &&
      !state.current.released &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
    [],
  );
  const blocker = useBlocker(shouldBlock);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      if (state.current.released) return;
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  const release = useCallback(() => {
    state.current.released = true;
  }, []);

  const dialog = (
    <ConfirmDialog
      open={blocker.state === "blocked"}
      onOpenChange={(open) => {
        if (!open && blocker.state === "blocked") blocker.reset();
      }}
      title={UNSAVED_CHANGES_MESSAGES.title}
      description={UNSAVED_CHANGES_MESSAGES.description}
      cancelLabel={UNSAVED_CHANGES_MESSAGES.stay}
      confirmLabel={UNSAVED_CHANGES_MESSAGES.leave}
      onConfirm={() => blocker.state === "blocked" && blocker.proceed()}
    />
  );

  return { release, dialog };
}
