import { describe, expect, it } from "vitest";
import { smsCodeText, smsLinkText } from "./sms-send-link.js";

/** Decision 066: an SMS shows on a locked screen, so it names the clinic, never the document. */
describe("SMS texts", () => {
  it("the code's SMS names the clinic and the code, not the document's title", () => {
    expect(smsCodeText("Clínica Sorriso", "123456")).toBe(
      "Clínica Sorriso: seu código para assinar o seu documento é 123456. Vale 10 min. Não compartilhe.",
    );
    expect(smsCodeText("Clínica Sorriso", "654321", true)).toBe(
      "Clínica Sorriso: seu código para revogar o seu consentimento é 654321. Vale 10 min. Não compartilhe.",
    );
  });

  it("the link's SMS names the clinic and the first name only", () => {
    expect(smsLinkText("Clínica Sorriso", "Carla Mendes Rocha", "https://x.test/assinar/abc")).toBe(
      "Clínica Sorriso: Carla, há um documento para você assinar. Link pessoal: https://x.test/assinar/abc",
    );
  });
});
