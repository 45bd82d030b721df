import type { Browser, BrowserContext, Page } from "playwright-core";
import { baseUrl, PHONE } from "./browser.js";

/** The JSON of an API answer, or an error naming the status and body. */
export async function json<T>(response: { status(): number; json(): Promise<unknown>; text(): Promise<string> }, status: number): Promise<T> {
  if (response.status() !== status) throw new Error(`expected ${status}, got ${response.status()}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** A patient's phone: 390×844 at 3×, touch, an Android Chrome user agent, no cookies. */
export async function patientPhone(browser: Browser): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport: PHONE,
    deviceScaleFactor: 3,
    hasTouch: true,
    isMobile: true,
    userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
    baseURL: baseUrl(),
    locale: "pt-BR",
    timezoneId: "America/Sao_Paulo",
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    // Refused submissions (400) and replaced links (410) are logged by the browser itself.
    if (message.type() === "error" && !/status of (400|404|410)/.test(message.text())) errors.push(`console: ${message.text()}`);
  });
  return { context, page, errors };
}

/** Draws a signature with the mouse on the 280×120 canvas. */
export async function drawSignature(page: Page): Promise<void> {
  const canvas = page.getByTestId("signature-canvas");
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + 30, box.y + 80);
  await page.mouse.down();
  for (let step = 1; step <= 24; step++) {
    await page.mouse.move(box.x + 30 + step * 9, box.y + 60 + Math.sin(step / 2) * 30, { steps: 2 });
  }
  await page.mouse.up();
}

/** The newest signing code e-mailed to `to`, from the development outbox (this machine only). */
export async function latestSigningCode(staffPage: Page, to: string): Promise<string> {
  const outbox = await json<{ items: { to: string; subject: string; text: string }[] }>(await staffPage.request.get("/api/dev/outbox"), 200);
  const mail = outbox.items.find((item) => item.to === to && item.subject.includes("código para assinar"));
  const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code e-mailed to ${to}`);
  return code;
}

/** On the signing page: Enviar código, the code from the outbox, Confirmar código. */
export async function confirmSigningCode(patient: Page, staffPage: Page, email: string): Promise<void> {
  await patient.getByTestId("otp-step").getByRole("button", { name: "Enviar código" }).click();
  await patient.getByText("Enviamos um código de 6 dígitos para o seu e-mail cadastrado.", { exact: false }).waitFor();
  await patient.getByLabel("Código de 6 dígitos").fill(await latestSigningCode(staffPage, email));
  await patient.getByRole("button", { name: "Confirmar código" }).click();
  await patient.getByTestId("otp-verified").waitFor();
}
