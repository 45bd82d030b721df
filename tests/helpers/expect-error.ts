import { expect } from "vitest";
import { ERRORS } from "../../src/shared/errors.js";

/** The answer is the error `code` of src/shared/errors.ts, with its status. */
export function expectError(response: { statusCode: number; json(): any; body: string }, code: keyof typeof ERRORS) {
  expect(response.statusCode, response.body).toBe(ERRORS[code].status);
  expect(response.json()).toMatchObject({ code });
}
