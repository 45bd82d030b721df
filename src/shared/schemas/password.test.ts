import { describe, expect, it } from "vitest";
import { isCommonPassword } from "../reference/common-passwords.js";
import { PASSWORD_MESSAGES, PASSWORD_MIN_LENGTH, passwordField } from "./password.js";

const messages = (value: unknown) => (passwordField.safeParse(value).error?.issues ?? []).map((i) => i.message);

describe("new passwords (decision 011)", () => {
  it("need at least 8 characters", () => {
    expect(PASSWORD_MIN_LENGTH).toBe(8);
    expect(messages("abc1234")).toEqual(["A senha deve ter pelo menos 8 caracteres"]);
    expect(messages("")).toContain("Informe a senha");
    expect(messages("abc1234x")).toEqual([]);
  });

  it("refuse common passwords, Portuguese ones included, whatever their case", () => {
    for (const common of [
      "12345678",
      "senha123",
      "brasil123",
      "Senha123",
      "MINHASENHA",
      "password",
      "iloveyou",
      "flamengo",
      "10203040",
    ]) {
      expect(messages(common), common).toEqual([PASSWORD_MESSAGES.tooCommon]);
    }
  });

  it("accept the test accounts' passwords", () => {
    for (const ok of ["segredo123", "senha-equipe", "nova-senha-forte"]) expect(messages(ok), ok).toEqual([]);
  });

  it("list only lower-case entries of 8+ characters (shorter ones fail the length rule anyway)", async () => {
    const source = await import("node:fs").then((fs) =>
      fs.readFileSync(new URL("../reference/common-passwords.ts", import.meta.url), "utf8"),
    );
    const entries = [...source.matchAll(/= `([^`]*)`/g)].flatMap((m) => (m[1] ?? "").split("\n"));
    expect(entries.length).toBeGreaterThan(7000);
    for (const entry of entries) {
      expect(entry.length, entry).toBeGreaterThanOrEqual(PASSWORD_MIN_LENGTH);
      expect(entry, entry).toBe(entry.trim().toLowerCase());
      expect(isCommonPassword(entry)).toBe(true);
    }
  });
});
