/**
 * Names of the JSON files embedded in the final PDF (decision 014). Kept apart, without imports,
 * so the PDF worker threads (src/pdf) load no hashing code with them.
 */
export const DOCUMENT_FILE = "documento.json";
export const EVIDENCE_FILE = "evidencias.json";
