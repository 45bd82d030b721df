import { AsyncLocalStorage } from "node:async_hooks";

/** The API key a request authenticated with, as the audit trail names it (decision 058). */
export interface ApiKeyActor {
  id: string;
  nome: string;
  prefixo: string;
}

const storage = new AsyncLocalStorage<ApiKeyActor>();

/**
 * Runs the rest of a request (its handler and everything it awaits) with `key` as the acting
 * key, so every audit event written on the way names it without each of the services passing
 * it along (decision 058).
 */
export function runWithApiKey<T>(key: ApiKeyActor, work: () => T): T {
  return storage.run(key, work);
}

/** The key the current request acts through, or undefined (a session, a job, a patient). */
export function currentApiKey(): ApiKeyActor | undefined {
  return storage.getStore();
}
