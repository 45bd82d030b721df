import { forwardRef, useEffect, useId, useImperativeHandle, useRef, useState } from "react";
import { SIGNATURE_CANVAS } from "@shared/signing-rules";
import { SIGNATURE_FRAME } from "../lib/signature-size";
import { useSignatureSize } from "../lib/use-signature-size";
import type { SignatureCanvasHandle } from "./signature-canvas";

const FONT_FAMILY = "'Segoe Script', 'Brush Script MT', 'URW Chancery L', 'Z003', cursive";

/**
 * The typed alternative to drawing (accessibility: for people who cannot draw): the
 * signer types their name and the page draws it, in a handwriting face, on an image the size of
 * the drawing field (280×120, wider on a phone). The signature is recorded as "digitada", never passed off as drawn.
 */
export const TypedSignature = forwardRef<
  SignatureCanvasHandle,
  { onChange?: (empty: boolean) => void; invalid?: boolean; disabled?: boolean }
>(function TypedSignature({ onChange, invalid = false, disabled = false }, ref) {
  const [value, setValue] = useState("");
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const inputId = useId();
  const boxRef = useRef<HTMLDivElement>(null);
  const { width, height } = useSignatureSize(boxRef);

  useEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext("2d");
    if (!canvas || !context) return;
    const ratio = Math.max(window.devicePixelRatio || 1, 1);
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, width, height);
    const text = value.trim();
    if (!text) return;
    // The largest size (≤ 40 px on the 280 px field, in proportion when wider) at which the name fits with a margin.
    const scale = width / SIGNATURE_CANVAS.width;
    let size = Math.round(40 * scale);
    do {
      context.font = `italic ${size}px ${FONT_FAMILY}`;
      size -= 2;
    } while (size > 12 && context.measureText(text).width > width - 24);
    context.fillStyle = SIGNATURE_CANVAS.color;
    context.textAlign = "center";
    context.textBaseline = "alphabetic";
    context.fillText(text, width / 2, height - 36 * scale);
  }, [value, width, height]);

  useImperativeHandle(ref, () => ({
    isEmpty: () => value.trim().length === 0,
    toDataUrl: () => canvasRef.current?.toDataURL("image/png") ?? "",
    clear: () => {
      setValue("");
      onChange?.(true);
    },
  }));

  return (
    <div ref={boxRef} className="grid w-full justify-items-center gap-2">
      <label htmlFor={inputId} className="justify-self-stretch text-sm font-medium">
        Digite seu nome para a assinatura
      </label>
      <input
        id={inputId}
        value={value}
        disabled={disabled}
        maxLength={80}
        autoComplete="name"
        onChange={(event) => {
          setValue(event.target.value);
          onChange?.(event.target.value.trim().length === 0);
        }}
        className={`h-11 w-full rounded-md border bg-background px-3 text-base shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 sm:h-10 sm:text-sm ${
          invalid ? "border-destructive" : "border-input"
        }`}
        data-testid="typed-signature-input"
      />
      <div
        className={`relative rounded-md border-2 border-dashed bg-white ${invalid ? "border-destructive" : "border-input"}`}
        style={{ width: width + SIGNATURE_FRAME, height: height + SIGNATURE_FRAME }}
      >
        <canvas
          ref={canvasRef}
          role="img"
          aria-label={value.trim() ? `Assinatura digitada: ${value.trim()}` : "Prévia da assinatura digitada"}
          data-testid="typed-signature-canvas"
          className="block"
          style={{ width, height }}
        />
        <span
          aria-hidden
          className="pointer-events-none absolute right-3 bottom-6 left-3 border-b border-muted-foreground/30"
        />
      </div>
    </div>
  );
});
