import type { Browser, BrowserContext, Page } from "playwright-core";
import { signatureDataUrl } from "../helpers/signing.js";
import { registerProfessional, signIn, validCpf } from "./accounts.js";
import { baseUrl, DESKTOP, newPage, PHONE } from "./browser.js";

/** The JSON of an API answer, or an error naming the status and body. */
export async function json<T>(
  response: { status(): number; json(): Promise<unknown>; text(): Promise<string> },
  status: number,
): Promise<T> {
  if (response.status() !== status)
    throw new Error(`expected ${status}, got ${response.status()}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** A patient's phone: 390×844 at 3×, touch, an Android Chrome user agent, no cookies. */
export async function patientPhone(
  browser: Browser,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport: PHONE,
    deviceScaleFactor: 3,
    hasTouch: true,
    isMobile: true,
    userAgent:
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
    baseURL: baseUrl(),
    locale: "pt-BR",
    timezoneId: "America/Sao_Paulo",
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    // Refused submissions (400) and replaced links (410) are logged by the browser itself.
    if (message.type() === "error" && !/status of (400|404|410)/.test(message.text()))
      errors.push(`console: ${message.text()}`);
  });
  return { context, page, errors };
}

/** Draws a signature with the mouse on the canvas (280×120 or more). */
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

/** The newest 6-digit code e-mailed to `to` whose subject has `subject`, from the development outbox (this machine only). */
async function latestCodeMail(staffPage: Page, to: string, subject: string): Promise<string> {
  const outbox = await json<{ items: { to: string; subject: string; text: string }[] }>(
    await staffPage.request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`),
    200,
  );
  const mail = outbox.items.find((item) => item.to === to && item.subject.includes(subject));
  const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code e-mailed to ${to}`);
  return code;
}

/** The newest signing code e-mailed to a signer at `to`. */
export const latestSigningCode = (staffPage: Page, to: string) => latestCodeMail(staffPage, to, "código para assinar");

/** The newest code e-mailed to a patient at `to` for revoking a signed consent (decision 056). */
export const latestRevocationCode = (staffPage: Page, to: string) =>
  latestCodeMail(staffPage, to, "código para revogar o consentimento");

/** The newest code e-mailed to the professional at `to` for the professional declaration (decision 042). */
export const professionalCode = (staffPage: Page, to: string) =>
  latestCodeMail(staffPage, to, "código de assinatura do profissional");

/** On the signing page: Enviar código, the code from the outbox, Confirmar código. */
export async function confirmSigningCode(patient: Page, staffPage: Page, email: string): Promise<void> {
  await patient.getByTestId("otp-step").getByRole("button", { name: "Enviar código" }).click();
  await patient.getByText("Enviamos um código de 6 dígitos para o seu e-mail cadastrado", { exact: false }).waitFor();
  await patient.getByLabel("Código de 6 dígitos").fill(await latestSigningCode(staffPage, email));
  await patient.getByRole("button", { name: "Confirmar código" }).click();
  await patient.getByTestId("otp-verified").waitFor();
}

/** A published template (`estrutura`: a short term unless given), a patient with CPF and e-mail (none when null), and a draft the professional has signed. */
export async function seedSignableDocument(
  staffPage: Page,
  account: { password: string },
  patient: { nome: string; cpf: string; email: string | null },
  titulo = "Termo de Consentimento - Clareamento dental",
  estrutura: {
    title: string;
    introduction: string;
    sections: { id: string; type: string; title: string; content: string }[];
    optional_consents?: { id: string; title: string; text: string }[];
    comprehension?: { id: string; section_id: string; text: string; options: string[]; correct: number }[];
  } = {
    title: "Termo — {{procedimento}}",
    introduction: "Eu, {{paciente_nome}}, CPF {{cpf_paciente}}, autorizo {{procedimento}}.",
    sections: [],
  },
  /** Further fields of the new document (e.g. `pedir_audio`). */
  documentFields: Record<string, unknown> = {},
): Promise<string> {
  const specialties = (await json<{ items: string[] }>(await staffPage.request.get("/api/templates/specialties"), 200))
    .items;
  const template = await json<{ id: string }>(
    await staffPage.request.post("/api/templates", {
      data: {
        titulo: "TCLE Verificação",
        especialidade: specialties[0],
        categoria: "Consentimento",
        estrutura,
      },
    }),
    201,
  );
  const version = await json<{ versao_atual_id: string }>(
    await staffPage.request.post(`/api/templates/${template.id}/status`, { data: { status: "published" } }),
    200,
  );
  const created = await json<{ id: string }>(
    await staffPage.request.post("/api/patients", {
      data: {
        nome: patient.nome,
        cpf: patient.cpf,
        ...(patient.email ? { email: patient.email } : {}),
        data_nascimento: "1985-07-21",
      },
    }),
    201,
  );
  const options = await json<{ physicians: { id: string }[] }>(
    await staffPage.request.get("/api/documents/form-options"),
    200,
  );
  const document = await json<{ id: string }>(
    await staffPage.request.post("/api/documents", {
      data: {
        paciente_id: created.id,
        template_version_id: version.versao_atual_id,
        titulo,
        procedimento: "Clareamento dental",
        medico_responsavel_id: options.physicians[0]!.id,
        ...documentFields,
      },
    }),
    201,
  );
  await json(
    await staffPage.request.post(`/api/documents/${document.id}/professional-signature`, {
      data: { senha: account.password },
    }),
    200,
  );
  return document.id;
}

/**
 * Signs through the public API as the page does (code from the development outbox, verified,
 * then the signature) — for tests whose subject is what comes after the signature.
 */
export async function signThroughApi(
  staffPage: Page,
  link: string,
  signer: { nome: string; cpf: string; email: string },
  signature: string,
  /** More of the signature's body, e.g. `consentimentos_opcionais`. */
  extra: Record<string, unknown> = {},
): Promise<void> {
  const token = new URL(link).pathname.split("/").pop()!;
  const request = staffPage.context().request;
  await json(await request.post(`/api/public/sign/${token}/code`, { data: {} }), 200);
  const codigo = await latestSigningCode(staffPage, signer.email);
  const page = await json<{ documento: { conteudo_sha256: string } }>(
    await request.post(`/api/public/sign/${token}/verify-code`, { data: { codigo } }),
    200,
  );
  await json(
    await request.post(`/api/public/sign/${token}`, {
      data: {
        ...signer,
        assinatura: signature,
        conteudo_sha256: page.documento.conteudo_sha256,
        aceite_eletronico: true,
        tipo_assinatura: "desenhada",
        codigo,
        ...extra,
      },
    }),
    200,
  );
}

/** The sealed PDF once the worker has made it (polled with a generous deadline). */
export async function sealedPdf(staffPage: Page, documentId: string): Promise<Buffer> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answer = await staffPage.request.get(`/api/documents/${documentId}/signed-pdf`);
    if (answer.status() === 200) return Buffer.from(await answer.body());
    if (Date.now() > deadline) throw new Error(`the sealed PDF was not ready in 60 s (last status ${answer.status()})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * A new professional, signed in on a desktop page, with a document for `nome` that asks for the
 * audio (decision 069), signed through the API (so neither the audio nor a reading record is
 * sent) and sealed: what the verifier tests check.
 */
export async function sealedDocumentWithAudioAsked(browser: Browser, nome: string) {
  const account = await registerProfessional();
  const staff = await newPage(browser, DESKTOP);
  await signIn(staff.page, account.email, account.password);
  const patient = { nome, cpf: validCpf(), email: `paciente.${Date.now()}@exemplo.com.br` };
  const documentId = await seedSignableDocument(staff.page, account, patient, undefined, undefined, {
    pedir_audio: true,
  });
  const sent = await json<{ link: string }>(
    await staff.page.request.post(`/api/documents/${documentId}/send`, { data: {} }),
    200,
  );
  await signThroughApi(staff.page, sent.link, patient, signatureDataUrl());
  return { account, staff, patient, documentId, sealed: await sealedPdf(staff.page, documentId) };
}

/**
 * A published template "TCLE ‹procedure›" (one introduction with the patient's name and CPF) and the
 * patients given, made through the API — what a bulk send starts from (decision 076).
 */
export async function clareamentoTemplateAndPatients(
  request: Page["request"],
  titulo: string,
  patients: Record<string, string | null>[],
): Promise<void> {
  const specialties = (await json<{ items: string[] }>(await request.get("/api/templates/specialties"), 200)).items;
  const template = await json<{ id: string }>(
    await request.post("/api/templates", {
      data: {
        titulo,
        especialidade: specialties[0],
        categoria: "Consentimento",
        estrutura: {
          title: "Termo — Clareamento",
          introduction: "Eu, {{paciente_nome}}, CPF {{cpf_paciente}}, autorizo o clareamento dental.",
          sections: [],
        },
      },
    }),
    201,
  );
  await json(await request.post(`/api/templates/${template.id}/status`, { data: { status: "published" } }), 200);
  for (const patient of patients) {
    const fields = Object.fromEntries(Object.entries(patient).filter(([, value]) => value !== null));
    await json(
      await request.post("/api/patients", { data: { cpf: validCpf(), data_nascimento: "1985-07-21", ...fields } }),
      201,
    );
  }
}

/**
 * A speechSynthesis that keeps what it was asked to say (the page's own code runs unchanged), for
 * `context.addInitScript`: `window.__spoken` lists "lang: text"; `window.__finishSpeech()` ends
 * the utterance being spoken, as the voice would at its end.
 */
export function stubSpeech() {
  const spoken: string[] = [];
  let current: { onend?: (() => void) | null } | null = null;
  Object.defineProperty(window, "__spoken", { value: spoken });
  Object.defineProperty(window, "__finishSpeech", {
    value: () => {
      const was = current;
      current = null;
      was?.onend?.();
    },
  });
  Object.defineProperty(window, "speechSynthesis", {
    configurable: true,
    value: {
      speak(utterance: { text: string; lang: string; onend?: (() => void) | null }) {
        spoken.push(`${utterance.lang}: ${utterance.text}`);
        current = utterance;
      },
      cancel() {
        const was = current;
        current = null;
        was?.onend?.();
      },
      getVoices: () => [],
      speaking: false,
      pending: false,
      paused: false,
    },
  });
}
