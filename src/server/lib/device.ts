import { UAParser } from "ua-parser-js";

/**
 * The signer's user agent in words for the evidence: browser, system and device, e.g.
 * "Chrome 126 · Android 14 · Google Pixel 8 (celular)". Null when nothing is recognised.
 */
export function describeDevice(userAgent: string | undefined | null): string | null {
  if (!userAgent) return null;
  const { browser, os, device } = new UAParser(userAgent).getResult();
  const kind =
    device.type === "mobile"
      ? "celular"
      : device.type === "tablet"
        ? "tablet"
        : device.type
          ? device.type
          : "computador";
  const parts = [
    [browser.name, browser.version?.split(".")[0]].filter(Boolean).join(" "),
    [os.name, os.version].filter(Boolean).join(" "),
    [device.vendor, device.model].filter(Boolean).join(" "),
  ].filter((part) => part.length > 0);
  if (parts.length === 0) return null;
  return `${parts.join(" · ")} (${kind})`;
}
