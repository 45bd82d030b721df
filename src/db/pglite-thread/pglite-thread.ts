/**
 * The PGlite thread (decision 038): PGlite's WebAssembly PostgreSQL runs here, off the app's event
 * loop, so a query's execution never holds the thread that parses requests and answers them. The
 * app's side (remote-pglite.ts) sends one message per query and keeps transactions whole.
 */
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { PGLITE_SETTINGS } from "./pglite-settings.js";
import {
  type FromThread,
  type PgliteThreadInit,
  type ThreadQueryOptions,
  type ToThread,
  toThreadError,
} from "./protocol.js";

const port = parentPort;
if (!port) throw new Error("pglite-thread.ts runs only as a worker thread");
const send = (message: FromThread, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

const keepText = (value: string) => value;

function queryOptions(options: ThreadQueryOptions) {
  const parsers: Record<number, (value: string) => string> = {};
  for (const oid of options.textTypes ?? []) parsers[oid] = keepText;
  return { rowMode: options.rowMode, parsers };
}

async function open(init: PgliteThreadInit): Promise<PGlite> {
  const loadDataDir = init.loadDataDir ? new Blob([init.loadDataDir]) : undefined;
  const client = await PGlite.create({ dataDir: init.dataDir, loadDataDir, extensions: { pg_trgm, unaccent } });
  await client.exec(PGLITE_SETTINGS);
  return client;
}

async function serve(client: PGlite): Promise<void> {
  const unlistens = new Map<string, () => Promise<void>>();
  const answer = async (message: ToThread): Promise<{ value: unknown; transfer?: ArrayBuffer[] }> => {
    if ((message.kind === "query" || message.kind === "exec") && message.begin) await client.exec("BEGIN");
    switch (message.kind) {
      case "query": {
        const result = await client.query(message.sql, message.params, queryOptions(message.options));
        return { value: { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows } };
      }
      case "exec":
        return {
          value: (await client.exec(message.sql)).map((result) => ({
            rows: result.rows,
            fields: result.fields,
            affectedRows: result.affectedRows,
          })),
        };
      case "listen": {
        if (!unlistens.has(message.channel)) {
          const channel = message.channel;
          unlistens.set(
            channel,
            await client.listen(channel, (payload) => send({ kind: "notification", channel, payload })),
          );
        }
        return { value: null };
      }
      case "unlisten": {
        const unlisten = unlistens.get(message.channel);
        unlistens.delete(message.channel);
        if (unlisten && !client.closed) await unlisten();
        return { value: null };
      }
      case "dump": {
        const bytes = await (await client.dumpDataDir("none")).arrayBuffer();
        return { value: bytes, transfer: [bytes] };
      }
      case "close":
        if (!client.closed) await client.close();
        return { value: null };
    }
  };
  port!.on("message", (message: ToThread) => {
    answer(message).then(
      ({ value, transfer }) => {
        send({ id: message.id, kind: "result", value }, transfer);
        if (message.kind === "close") port!.close();
      },
      (error: unknown) => send({ id: message.id, kind: "error", error: toThreadError(error) }),
    );
  });
}

open(workerData as PgliteThreadInit).then(
  async (client) => {
    await serve(client);
    send({ kind: "ready" });
  },
  (error: unknown) => send({ kind: "failed", error: toThreadError(error) }),
);
