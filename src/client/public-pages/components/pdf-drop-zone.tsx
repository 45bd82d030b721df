import { FileUp } from "lucide-react";
import type * as React from "react";
import { useState } from "react";

/** Drag a PDF here or tap to choose one: the file goes to `onFile` (the server check or the local one). */
export function PdfDropZone({ onFile }: { onFile: (file: File | undefined) => void }) {
  const [dragging, setDragging] = useState(false);
  const onDrop = (event: React.DragEvent) => {
    event.preventDefault();
    setDragging(false);
    onFile(event.dataTransfer.files[0]);
  };
  return (
    <label
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      className={`grid cursor-pointer justify-items-center gap-2 rounded-lg border-2 border-dashed p-6 text-center text-sm transition focus-within:ring-[3px] focus-within:ring-ring/50 ${
        dragging ? "border-primary bg-primary/5" : "border-input hover:bg-muted/60"
      }`}
      data-testid="pdf-drop-zone"
    >
      <FileUp className="size-7 text-primary" aria-hidden />
      <span className="font-medium">Arraste o PDF aqui ou toque para escolher</span>
      <span className="text-xs text-muted-foreground">Somente arquivos .pdf</span>
      <input
        type="file"
        accept="application/pdf,.pdf"
        className="sr-only"
        aria-label="Arquivo PDF para verificar"
        onChange={(event) => {
          onFile(event.target.files?.[0]);
          event.target.value = "";
        }}
      />
    </label>
  );
}
