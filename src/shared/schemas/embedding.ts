import { z } from "zod";
import { text } from "./safe-input.js";

/**
 * Embedded signing (decision 071): the sites of the clinic's own systems that may show the
 * signing page inside them. Each is a bare origin — scheme, host and port, no path — written
 * into the page's CSP `frame-ancestors` and used as the only target of its `postMessage` events.
 */
export const MAX_EMBED_ORIGINS = 10;

export const EMBED_MESSAGES = {
  originRequired: "Informe o endereço do site",
  originInvalid: "Endereço inválido: use só o início do endereço, como https://sistema.clinica.com.br",
  originPath: "Use só o início do endereço (protocolo, domínio e porta), sem caminho, parâmetros ou #",
  originHttp: "Use um endereço https:// (http:// só para localhost ou 127.0.0.1, em desenvolvimento)",
  originHttpsRequired: "Use um endereço https:// (obrigatório em produção)",
  tooMany: `No máximo ${MAX_EMBED_ORIGINS} sites`,
};

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The origin a typed address names, or an error message. A trailing "/" is accepted and dropped;
 * a path, query, fragment, user, wildcard or other scheme is not. http:// only for a local host.
 */
export function parseEmbedOrigin(value: string): { origin: string } | { error: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { error: EMBED_MESSAGES.originInvalid };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { error: EMBED_MESSAGES.originInvalid };
  if (url.username || url.password || url.hostname.includes("*") || !url.hostname) {
    return { error: EMBED_MESSAGES.originInvalid };
  }
  if (url.pathname !== "/" || url.search || url.hash || /[?#]/.test(value)) {
    return { error: EMBED_MESSAGES.originPath };
  }
  if (url.protocol === "http:" && !LOCAL_HOSTS.has(url.hostname)) return { error: EMBED_MESSAGES.originHttp };
  return { origin: url.origin };
}

/** True for an origin served on the local machine over http (development and tests only). */
export const isLocalHttpOrigin = (origin: string) => origin.startsWith("http://");

const originField = text({ error: EMBED_MESSAGES.originRequired })
  .trim()
  .min(1, { error: EMBED_MESSAGES.originRequired, abort: true })
  .max(300, "Use no máximo 300 caracteres")
  .transform((value, context) => {
    const parsed = parseEmbedOrigin(value);
    if ("error" in parsed) {
      context.addIssue({ code: "custom", message: parsed.error });
      return z.NEVER;
    }
    return parsed.origin;
  });

/** PUT /api/settings/embedding: the whole list (an empty one turns embedding off). */
export const embedSettingsInputSchema = z
  .object({
    origens: z
      .array(originField, { error: "Informe a lista de sites" })
      .max(MAX_EMBED_ORIGINS, EMBED_MESSAGES.tooMany)
      // The same site typed twice is kept once.
      .transform((list) => [...new Set(list)]),
  })
  .strict();
export type EmbedSettingsInput = z.input<typeof embedSettingsInputSchema>;

/** GET/PUT /api/settings/embedding. */
export const embedSettingsSchema = z.object({
  origens: z.array(text()),
});
export type EmbedSettings = z.infer<typeof embedSettingsSchema>;

/** What the embedded page posts to its parent (no health data: ids and status only). */
export type EmbedEvent =
  | { type: "consentir:loaded"; documento_id: string; status: string }
  | { type: "consentir:signed"; documento_id: string; status: string }
  | { type: "consentir:refused"; documento_id: string; status: string };

/** The page's claim, sent with a signature or a refusal: it was shown inside this allowed site. */
export const embeddedInputSchema = z
  .object({ origem: text().max(300) })
  .strict()
  .optional();
