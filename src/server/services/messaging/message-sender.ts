/**
 * One way to send a short text to a person (decision 018): the signing code goes through a
 * MessageSender. E-mail keeps its outbox (services/email); SMS goes through the Zenvia client below.
 * A WhatsApp sender would be one more implementation of the same interface.
 */
export interface MessageSender {
  readonly channel: "sms" | "whatsapp";
  /** Sends `text` to `to` (digits with the country code, e.g. 5511987654321); resolves to the provider's id. */
  send(to: string, text: string): Promise<{ id: string }>;
}

/** A refused or failed send, with what the provider said (kept in the job's last_error). */
export class MessageSendError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = "MessageSendError";
  }
}
