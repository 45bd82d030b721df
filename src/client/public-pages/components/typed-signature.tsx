import { forwardRef, useEffect, useId, useImperativeHandle, useRef, useState } from "react";
import { SIGNATURE_CANVAS } from "@shared/signing-rules";
import type { SignatureCanvasHandle } from "./signature-canvas";

const FONT_FAMILY = "'Segoe Script', 'Brush Script MT', 'URW Chancery L', 'Z003', cursive";

/**
 * The typed alternative to drawing (issue 11, accessibility: for people who cannot draw): the
 * signer types their name and the page draws it, in a handwriting face, on a 280×120 image like
 * the canvas's. The signature is recorded as "digitada", never passed off as drawn.
 */
export const TypedSignature = forwardRef<SignatureCanvasHandle, { onChange?: (empty: boolean) => void; invalid?: boolean; disabled?: boolean }>(
  function TypedSignature({ onChange, invalid = false, disabled = false }, ref) {
    const [value, setValue] = useState("");
    const canvasRef = useRef<HTMLCanvasElement>(null);
    const inputId = useId();

    useEffect(() => {
      const canvas = canvasRef.current;
      const context = canvas?.getContext("2d");
      if (!canvas || !context) return;
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      canvas.width = Math.round(SIGNATURE_CANVAS.width * ratio);
      canvas.height = Math.round(SIGNATURE_CANVAS.height * ratio);
      context.setTransform(ratio, 0, 0, ratio, 0, 0);
      context.clearRect(0, 0, SIGNATURE_CANVAS.width, SIGNATURE_CANVAS.height);
      const text = value.trim();
      if (!text) return;
      // The largest size (≤ 40 px) at which the name fits the field with a margin.
      let size = 40;
      do {
        context.font = `italic ${size}px ${FONT_FAMILY}`;
        size -= 2;
      } while (size > 12 && context.measureText(text).width > SIGNATURE_CANVAS.width - 24);
      context.fillStyle = SIGNATURE_CANVAS.color;
      context.textAlign = "center";
      context.textBaseline = "alphabetic";
      context.fillText(text, SIGNATURE_CANVAS.width / 2, SIGNATURE_CANVAS.height - 36);
    }, [value]);

    useImperativeHandle(ref, () => ({
      isEmpty: () => value.trim().length === 0,
      toDataUrl: () => canvasRef.current?.toDataURL("image/png") ?? "",
      clear: () => {
        setValue("");
        onChange?.(true);
      },
    }));

    return (
      <div className="grid justify-items-center gap-2">
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
          style={{ width: SIGNATURE_CANVAS.width + 4, height: SIGNATURE_CANVAS.height + 4 }}
        >
          <canvas
            ref={canvasRef}
            role="img"
            aria-label={value.trim() ? `Assinatura digitada: ${value.trim()}` : "Prévia da assinatura digitada"}
            data-testid="typed-signature-canvas"
            className="block"
            style={{ width: SIGNATURE_CANVAS.width, height: SIGNATURE_CANVAS.height }}
          />
          <span aria-hidden className="pointer-events-none absolute right-3 bottom-6 left-3 border-b border-muted-foreground/30" />
        </div>
      </div>
    );
  },
);
