import { describe, expect, it } from "vitest";
import { passwordField } from "../../shared/schemas/password.js";
import { DEMO_PASSWORD } from "./demo-clinic.js";

describe("the demo account's password", () => {
  it("passes the rules for new passwords (decision 011), so the seeded account can sign in and change it", () => {
    expect(passwordField.safeParse(DEMO_PASSWORD).success).toBe(true);
  });
});
