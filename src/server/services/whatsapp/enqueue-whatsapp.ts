import type { Tx } from "../../../db/client.js";
import { whatsappMessages } from "../../../db/schema.js";
import { maskPhone4 } from "../../../shared/br/phone.js";
import type { Env } from "../../env.js";
import { enqueueJob } from "../../jobs/enqueue-job.js";
import type { SecretBox } from "../../lib/secret-box.js";

/** Which approved template a message uses (decisions 059, 074). */
export type WhatsappTemplateKind = "link" | "codigo" | "lembrete" | "via_assinada" | "registro";

/** The WhatsApp Cloud API is configured (phone number id and token): messages go by the API. */
export function whatsappConfigured(
  env: Partial<Pick<Env, "WHATSAPP_PHONE_NUMBER_ID" | "WHATSAPP_ACCESS_TOKEN">>,
): boolean {
  return Boolean(env.WHATSAPP_PHONE_NUMBER_ID && env.WHATSAPP_ACCESS_TOKEN);
}

/**
 * Queues one template message in the caller's transaction: a whatsapp_messages row (status
 * "queued", shown on the document page) and a "whatsapp.send" job whose parameters — a signing
 * link or a code — are sealed with the secret box, as the SMS text is (decision 018).
 */
export async function enqueueWhatsapp(
  tx: Tx,
  secretBox: SecretBox,
  input: {
    tenantId: string;
    contratoId: string;
    tipo: WhatsappTemplateKind;
    /** The mobile on record, normalized (11 digits). */
    telefone: string;
    /** The template's body parameters, in order. */
    params: string[];
  },
): Promise<string> {
  const [row] = await tx
    .insert(whatsappMessages)
    .values({
      tenant_id: input.tenantId,
      contrato_id: input.contratoId,
      tipo: input.tipo,
      destino: maskPhone4(input.telefone),
    })
    .returning({ id: whatsappMessages.id });
  const id = row!.id;
  await enqueueJob(tx, {
    kind: "whatsapp.send",
    tenantId: input.tenantId,
    payload: {
      messageId: id,
      to: `55${input.telefone}`,
      tipo: input.tipo,
      sealed: secretBox.seal(Buffer.from(JSON.stringify(input.params), "utf8")).toString("base64"),
    },
  });
  return id;
}
