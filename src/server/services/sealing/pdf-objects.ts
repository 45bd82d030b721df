/** The PDF object reader lives in src/shared/pdf-reader so the browser verifier shares it (decision 077). */
export * from "../../../shared/pdf-reader/pdf-objects.js";
