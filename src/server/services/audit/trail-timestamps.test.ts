import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { everyMsOf, trailImprint } from "./trail-timestamps.js";

describe("trailImprint (decision 072)", () => {
  it("is SHA-256 of the 32 bytes the head's hex hash spells, not of its 64 characters", () => {
    const head = "a3".repeat(32);
    const imprint = trailImprint(head);
    expect(imprint).toHaveLength(32);
    expect(imprint.toString("hex")).toBe(createHash("sha256").update(Buffer.alloc(32, 0xa3)).digest("hex"));
    expect(imprint.toString("hex")).not.toBe(createHash("sha256").update(head, "utf8").digest("hex"));
  });

  it("matches a known value (printf %s HASH | xxd -r -p | sha256sum)", () => {
    // 32 zero bytes: the well-known SHA-256 of a zero block.
    expect(trailImprint("0".repeat(64)).toString("hex")).toBe(
      "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925",
    );
  });

  it("refuses anything but 64 lower-case hex digits", () => {
    expect(() => trailImprint("ABCD".repeat(16))).toThrow(/64 dígitos/);
    expect(() => trailImprint("ab")).toThrow(/64 dígitos/);
    expect(() => trailImprint(`${"0".repeat(63)}g`)).toThrow(/64 dígitos/);
  });

  it("the cadence is an hour unless the environment says otherwise", () => {
    expect(everyMsOf({})).toBe(3_600_000);
    expect(everyMsOf({ AUDIT_TIMESTAMP_EVERY_MINUTES: 5 })).toBe(300_000);
  });
});
