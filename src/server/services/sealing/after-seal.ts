/** The rule for what may follow the seal lives in src/shared/pdf-reader so the browser verifier shares it (decision 077). */
export * from "../../../shared/pdf-reader/after-seal.js";
