import { type ReactNode, useCallback, useEffect, useRef } from "react";
import { type BlockerFunction, useBlocker } from "react-router";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";

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
    <AlertDialog
      open={blocker.state === "blocked"}
      onOpenChange={(open) => {
        if (!open && blocker.state === "blocked") blocker.reset();
      }}
    >
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{UNSAVED_CHANGES_MESSAGES.title}</AlertDialogTitle>
          <AlertDialogDescription>{UNSAVED_CHANGES_MESSAGES.description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>{UNSAVED_CHANGES_MESSAGES.stay}</AlertDialogCancel>
          <AlertDialogAction variant="destructive" onClick={() => blocker.state === "blocked" && blocker.proceed()}>
            {UNSAVED_CHANGES_MESSAGES.leave}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );

  return { release, dialog };
}
