import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { cepCache } from "../../../db/schema.js";
import type { Endereco } from "../../../shared/schemas/cep.js";
import { AppError } from "../../errors.js";
import type { CepAnswer, CepSource } from "./cep-clients.js";

const FOUND_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const NOT_FOUND_TTL_MS = 24 * 60 * 60 * 1000;

export interface LookupCepOptions {
  db: Db;
  sources: CepSource[];
  cep: string;
  log: { warn(obj: object, msg: string): void };
  now?: Date;
}

/**
 * Looks a CEP up in the cache, then in each source in turn (ViaCEP, then BrasilAPI). A source
 * that fails is skipped; "not found" from a source that answered is final. Answers are cached.
 */
export async function lookupCep({ db, sources, cep, log, now = new Date() }: LookupCepOptions): Promise<Endereco> {
  const [cached] = await db.select().from(cepCache).where(eq(cepCache.cep, cep)).limit(1);
  if (cached) {
    const age = now.getTime() - cached.fetched_at.getTime();
    if (cached.found && cached.payload && age < FOUND_TTL_MS) return cached.payload as unknown as Endereco;
    if (!cached.found && age < NOT_FOUND_TTL_MS) throw new AppError("CEP_NOT_FOUND");
  }

  let answer: CepAnswer | undefined;
  let source = "";
  for (const candidate of sources) {
    try {
      answer = await candidate.lookup(cep);
      source = candidate.name;
      break;
    } catch (error) {
      log.warn({ err: error, source: candidate.name, cep }, "CEP source failed");
    }
  }
  if (!answer) throw new AppError("CEP_UNAVAILABLE");

  const payload = answer.found ? (answer.address as unknown as Record<string, string>) : null;
  await db
    .insert(cepCache)
    .values({ cep, found: answer.found, payload, source, fetched_at: now })
    .onConflictDoUpdate({ target: cepCache.cep, set: { found: answer.found, payload, source, fetched_at: now } });

  if (!answer.found) throw new AppError("CEP_NOT_FOUND");
  return answer.address;
}
