/**
 * The embedded-file reader lives in src/shared/pdf-reader, shared with the browser verifier (decision
 * 077); here it inflates with node:zlib and answers Buffers.
 */
import { inflateSync } from "node:zlib";
import { embeddedFiles as readEmbeddedFiles } from "../../../shared/pdf-reader/embedded-files.js";

export {
  type Inflate,
  infoEntry,
  MAX_EMBEDDED_FILE_BYTES,
  MAX_EMBEDDED_FILES,
  pdfStringText,
} from "../../../shared/pdf-reader/embedded-files.js";

export interface EmbeddedFile {
  name: string;
  bytes: Buffer;
}

const nodeInflate = (raw: Uint8Array, maxOutputLength: number): Uint8Array => inflateSync(raw, { maxOutputLength });

/** Every embedded file of the document (name tree order); throws when the PDF cannot be read. */
export function embeddedFiles(pdf: Buffer): EmbeddedFile[] {
  return readEmbeddedFiles(pdf, nodeInflate).map(({ name, bytes }) => ({
    name,
    bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length),
  }));
}
