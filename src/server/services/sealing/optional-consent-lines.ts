/** Shared with the browser verifier (decision 077). */
export { optionalConsentLines } from "../../../shared/verification/optional-consent-lines.js";
