/** The rule for what may follow the seal lives in src/shared/pdf so the browser verifier shares it (decision 077). */
export * from "../../../shared/pdf/after-seal.js";
