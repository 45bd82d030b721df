import * as React from "react";
import { useIMask } from "react-imask";
import { Input } from "@/components/ui/input";
import type { MaskOptions } from "./masks";

export type MaskedInputProps = Omit<React.ComponentProps<typeof Input>, "ref"> & {
  /** One of the options in ./masks (a module constant: a new object re-creates the mask). */
  mask: MaskOptions;
  ref?: React.Ref<HTMLInputElement>;
};

/** Events that may follow a value written from outside (react-hook-form's reset/setValue, a controlled `value`). */
const SYNC_EVENTS = ["focus", "keydown", "beforeinput", "mousedown", "paste", "select"] as const;

/**
 * An input masked by imask (CPF, CNPJ, CEP, phone, reais): editing a middle digit keeps the caret
 * there. Works with react-hook-form's `register` (name, onChange, onBlur, ref) and with a controlled
 * `value`/`onChange`: the form receives the masked text, as the shared schemas expect.
 */
export function MaskedInput({ mask, ref, onChange, value, ...props }: MaskedInputProps) {
  const onChangeRef = React.useRef(onChange);
  onChangeRef.current = onChange;
  const elementRef = React.useRef<HTMLInputElement | null>(null);
  const onAccept = React.useCallback(() => {
    const element = elementRef.current;
    // imask writes the element itself, which hides the change from React's onChange: tell the form.
    if (element)
      onChangeRef.current?.({
        target: element,
        currentTarget: element,
        type: "change",
      } as unknown as React.ChangeEvent<HTMLInputElement>);
  }, []);
  const { ref: inputRef, maskRef } = useIMask<HTMLInputElement>(mask, { onAccept, ref: elementRef });

  // A value written from outside the mask (a form reset, a lookup filling the field) is read back
  // through it before the next keystroke, so imask edits what the user sees.
  React.useEffect(() => {
    const element = inputRef.current;
    if (!element) return;
    const sync = (event: Event) => {
      const current = maskRef.current;
      if (!current) return;
      if (current.displayValue !== element.value) current.value = element.value;
      // imask reads the selection at keydown; one made without a key (select(), a drag, an
      // autofill or a test's fill) must be read too, or the edit is applied at the old caret.
      if (event.type === "beforeinput" || event.type === "select") current._saveSelection();
      // imask moves the caret past the mask's first fixed character on focus, which also collapses
      // a selection made just before focusing (select-all then Delete would remove one digit).
      // A click still aligns the caret; focus leaves the selection as the browser set it.
      if (event.type === "focus") event.stopImmediatePropagation();
    };
    for (const name of SYNC_EVENTS) element.addEventListener(name, sync, true);
    return () => {
      for (const name of SYNC_EVENTS) element.removeEventListener(name, sync, true);
    };
  }, [inputRef, maskRef]);

  // A controlled value that changed from outside (e.g. cleared) goes through the mask too.
  React.useEffect(() => {
    const current = maskRef.current;
    if (current && value !== undefined && current.value !== String(value)) current.value = String(value);
  }, [value, maskRef]);

  const setRefs = React.useCallback(
    (element: HTMLInputElement | null) => {
      inputRef.current = element;
      if (typeof ref === "function") ref(element);
      else if (ref) ref.current = element;
    },
    [ref, inputRef],
  );

  return <Input {...props} value={value} onChange={value === undefined ? undefined : noop} ref={setRefs} />;
}

function noop() {}
