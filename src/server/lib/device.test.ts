import { describe, expect, it } from "vitest";
import { describeDevice } from "./device.js";

describe("describeDevice", () => {
  it("names browser, system and device of a phone", () => {
    const ua =
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.122 Mobile Safari/537.36";
    expect(describeDevice(ua)).toBe("Chrome 126 · Android 14 · Google Pixel 8 (celular)");
  });
  it("says computador for a desktop browser, and null for nothing", () => {
    const ua =
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
    expect(describeDevice(ua)).toBe("Chrome 126 · Windows 10 (computador)");
    expect(describeDevice(undefined)).toBeNull();
    expect(describeDevice("")).toBeNull();
  });
});
