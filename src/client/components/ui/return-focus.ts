import { useRef } from "react";

/**
 * Focus goes back to whoever opened a dialog when it closes. Radix does this only for a
 * <DialogTrigger>; dialogs opened from state (a menu item, a row action, a button that also runs
 * a request) would drop focus on <body>. The last elements that had focus are remembered, and on
 * close the newest one still on the page (a menu item is gone; its menu's button is not) gets it.
 */
const HISTORY = 8;
const history: HTMLElement[] = [];

if (typeof document !== "undefined") {
  document.addEventListener(
    "focusin",
    (event) => {
      if (!(event.target instanceof HTMLElement)) return;
      // A Radix menu opens without focusing its button (pointerdown is prevented): its content
      // names the button (aria-labelledby), which stands in as the opener once the item is gone.
      const menu = event.target.closest("[role=menu][aria-labelledby]");
      const button = menu ? document.getElementById(menu.getAttribute("aria-labelledby") ?? "") : null;
      if (button && history.at(-1) !== button) history.push(button);
      history.push(event.target);
      while (history.length > HISTORY) history.shift();
    },
    true,
  );
}

type AutoFocusHandler = (event: Event) => void;

/** The two handlers a dialog's Content takes, composed with the caller's own. */
export function useReturnFocus(onOpenAutoFocus?: AutoFocusHandler, onCloseAutoFocus?: AutoFocusHandler) {
  const openers = useRef<HTMLElement[]>([]);
  return {
    onOpenAutoFocus: (event: Event) => {
      // Runs before focus moves into the dialog: what had it until now.
      openers.current = [...history];
      onOpenAutoFocus?.(event);
    },
    onCloseAutoFocus: (event: Event) => {
      onCloseAutoFocus?.(event);
      if (event.defaultPrevented) return;
      const opener = [...openers.current].reverse().find(usable);
      if (!opener) return;
      event.preventDefault();
      opener.focus({ preventScroll: true });
    },
  };
}

/** Still on the page, and not inside a dialog that has closed (one opened from the preview is fine). */
function usable(element: HTMLElement): boolean {
  if (!element.isConnected) return false;
  const dialog = element.closest<HTMLElement>("[role=dialog],[role=alertdialog]");
  return dialog === null || dialog.dataset.state === "open";
}
