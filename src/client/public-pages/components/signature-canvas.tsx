import { Eraser } from "lucide-react";
import { forwardRef, useEffect, useImperativeHandle, useRef } from "react";
import SignaturePad from "signature_pad";
import { SIGNATURE_CANVAS } from "@shared/signing-rules";
import { SIGNATURE_FRAME } from "../lib/signature-size";
import { useSignatureSize } from "../lib/use-signature-size";
import { PlainButton } from "./public-shell";

export interface SignatureCanvasHandle {
  isEmpty(): boolean;
  /** PNG data URL of the drawing, at the screen's pixel density. */
  toDataUrl(): string;
  clear(): void;
}

/**
 * The drawing field (spec part 1 §9): 280×120 CSS px on a wide screen, wider on a phone (it fills
 * the form's width in the same proportion, lib/signature-size.ts), black 2 px line. The backing
 * store is scaled by devicePixelRatio so the stroke stays sharp on high-density phone screens.
 * signature_pad draws its stroke as discs of radius `width`: 1 px radius = a 2 px line.
 */
export const SignatureCanvas = forwardRef<
  SignatureCanvasHandle,
  { onChange?: (empty: boolean) => void; disabled?: boolean; invalid?: boolean }
>(function SignatureCanvas({ onChange, disabled = false, invalid = false }, ref) {
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const fitRef = useRef<() => void>(() => {});
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const size = useSignatureSize(boxRef);
  const sizeRef = useRef(size);
  sizeRef.current = size;

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const radius = SIGNATURE_CANVAS.lineWidth / 2;
    const pad = new SignaturePad(canvas, {
      penColor: SIGNATURE_CANVAS.color,
      minWidth: radius,
      maxWidth: radius,
      dotSize: radius,
      backgroundColor: "rgba(0,0,0,0)",
    });
    padRef.current = pad;

    /**
     * Backing store = CSS size × ratio, context scaled back: crisp lines, same coordinates. When the
     * field changed size (a phone turned), the strokes drawn so far are scaled with it.
     */
    let drawnAt = sizeRef.current.width;
    const fit = () => {
      const { width, height } = sizeRef.current;
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      const scale = width / drawnAt;
      const data = pad.toData().map((group) => ({
        ...group,
        points: group.points.map((point) => ({ ...point, x: point.x * scale, y: point.y * scale })),
      }));
      drawnAt = width;
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      canvas.getContext("2d")?.scale(ratio, ratio);
      pad.clear();
      if (data.length > 0) pad.fromData(data);
    };
    fitRef.current = fit;
    fit();
    const endStroke = () => onChangeRef.current?.(pad.isEmpty());
    pad.addEventListener("endStroke", endStroke);
    // Zooming or moving the page to another screen changes the ratio.
    let media: MediaQueryList | null = null;
    const watchRatio = () => {
      media?.removeEventListener("change", onRatio);
      media = window.matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`);
      media.addEventListener("change", onRatio);
    };
    const onRatio = () => {
      fit();
      watchRatio();
    };
    watchRatio();
    return () => {
      media?.removeEventListener("change", onRatio);
      pad.removeEventListener("endStroke", endStroke);
      pad.off();
      padRef.current = null;
      fitRef.current = () => {};
    };
  }, []);

  useEffect(() => {
    fitRef.current();
  }, [size.width, size.height]);

  useEffect(() => {
    const pad = padRef.current;
    if (!pad) return;
    if (disabled) pad.off();
    else pad.on();
  }, [disabled]);

  useImperativeHandle(ref, () => ({
    isEmpty: () => padRef.current?.isEmpty() ?? true,
    toDataUrl: () => padRef.current?.toDataURL("image/png") ?? "",
    clear: () => {
      padRef.current?.clear();
      onChangeRef.current?.(true);
    },
  }));

  return (
    <div ref={boxRef} className="grid w-full justify-items-center gap-2">
      <div
        className={`relative rounded-md border-2 border-dashed bg-white ${invalid ? "border-destructive" : "border-input"}`}
        style={{ width: size.width + SIGNATURE_FRAME, height: size.height + SIGNATURE_FRAME }}
      >
        <canvas
          ref={canvasRef}
          data-testid="signature-canvas"
          aria-label="Campo de assinatura: desenhe sua assinatura com o dedo ou o mouse"
          role="img"
          className="block cursor-crosshair touch-none select-none"
          style={{ width: size.width, height: size.height }}
        />
        <span
          aria-hidden
          className="pointer-events-none absolute right-3 bottom-6 left-3 border-b border-muted-foreground/30"
        />
      </div>
      <PlainButton
        variant="ghost"
        className="px-4 text-muted-foreground"
        onClick={() => padRef.current && (padRef.current.clear(), onChangeRef.current?.(true))}
        disabled={disabled}
      >
        <Eraser aria-hidden /> Limpar
      </PlainButton>
    </div>
  );
});
