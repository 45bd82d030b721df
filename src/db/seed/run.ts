import path from "node:path";
import { loadEnv } from "../../server/env.js";
import { openDatabase } from "../client.js";
import { DEMO_EMAIL, DEMO_PASSWORD, seedDemoClinic } from "./demo-clinic.js";

/** `npm run seed`: the demo clinic, on the same database `npm start` uses. */
const env = loadEnv();
let database;
try {
  database = env.DATABASE_URL
    ? await openDatabase({ kind: "postgres", url: env.DATABASE_URL })
    : await openDatabase({ kind: "pglite", dataDir: path.join(path.resolve(env.DATA_DIR), "pglite") });
} catch (error) {
  console.error((error as Error).message);
  if (!env.DATABASE_URL)
    console.error("O banco embutido aceita um processo por vez: pare o app (npm start) e rode o seed de novo.");
  process.exit(1);
}
try {
  const result = await seedDemoClinic(database.db);
  console.log(result.created ? "Clínica de demonstração criada." : "A clínica de demonstração já existia; nada mudou.");
  console.log(`Entre em http://localhost:${env.PORT} com ${DEMO_EMAIL} / ${DEMO_PASSWORD}`);
  console.log("Equipe (mesma senha): secretaria@consentir.test, recepcao@consentir.test, dra.beatriz@consentir.test");
} finally {
  await database.close();
}
