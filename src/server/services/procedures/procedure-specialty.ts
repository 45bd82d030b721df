import { ERRORS } from "../../../shared/errors.js";
import { isKnownSpecialty } from "../../../shared/reference/procedure-specialties.js";
import { AppError } from "../../errors.js";

/**
 * A procedure's specialty is a slug of the reference lists (src/shared/reference/specialties.ts),
 * or none. `kept` is the value already stored: an older free-text specialty may stay as it is.
 */
export function assertProcedureSpecialty(value: string | undefined, kept?: string | null): void {
  if (!value || isKnownSpecialty(value) || value === kept) return;
  throw new AppError("PROCEDURE_SPECIALTY_UNKNOWN", undefined, {
    issues: [{ path: "especialidade", message: ERRORS.PROCEDURE_SPECIALTY_UNKNOWN.message }],
  });
}
