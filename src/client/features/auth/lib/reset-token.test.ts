import { describe, expect, it } from "vitest";
import { readResetToken } from "./reset-token";

const TOKEN = "q3Vt0mZ8kR1x_yP-4bN7cL2dE5fG6hJ9aS0wQ1eR2tY";

describe("readResetToken", () => {
  it("accepts a token as the server issues it", () => {
    expect(TOKEN).toHaveLength(43);
    expect(readResetToken(TOKEN)).toBe(TOKEN);
  });

  it("drops punctuation glued to the end of the link", () => {
    expect(readResetToken(`${TOKEN}).`)).toBe(TOKEN);
    expect(readResetToken(` ${TOKEN} `)).toBe(TOKEN);
  });

  it("refuses a missing, cut or changed token", () => {
    expect(readResetToken(null)).toBeNull();
    expect(readResetToken("")).toBeNull();
    expect(readResetToken(TOKEN.slice(0, 30))).toBeNull();
    expect(readResetToken(`${TOKEN}x`)).toBeNull();
    expect(readResetToken(`${TOKEN.slice(0, 20)}+${TOKEN.slice(21)}`)).toBeNull();
  });
});
