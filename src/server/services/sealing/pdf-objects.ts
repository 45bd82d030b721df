/** The PDF object reader lives in src/shared/pdf so the browser verifier shares it (decision 077). */
export * from "../../../shared/pdf/pdf-objects.js";
