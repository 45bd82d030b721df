import { type RefObject, useLayoutEffect, useState } from "react";
import { SIGNATURE_CANVAS } from "@shared/signing-rules";
import { type SignatureSize, signatureFieldSize } from "./signature-size";

/**
 * The signature field's size for the room `container` has (signatureFieldSize), followed as the
 * phone turns or the window changes width. 280×120 until the first measure.
 */
export function useSignatureSize(container: RefObject<HTMLElement | null>): SignatureSize {
  const [size, setSize] = useState<SignatureSize>({ width: SIGNATURE_CANVAS.width, height: SIGNATURE_CANVAS.height });
  useLayoutEffect(() => {
    const element = container.current;
    if (!element) return;
    const measure = () => {
      const next = signatureFieldSize(element.getBoundingClientRect().width, window.innerWidth);
      setSize((current) => (current.width === next.width && current.height === next.height ? current : next));
    };
    measure();
    const observer = typeof ResizeObserver === "function" ? new ResizeObserver(measure) : null;
    observer?.observe(element);
    window.addEventListener("resize", measure);
    return () => {
      observer?.disconnect();
      window.removeEventListener("resize", measure);
    };
  }, [container]);
  return size;
}
