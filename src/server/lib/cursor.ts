import { AppError } from "../errors.js";

/** Keyset cursor over (created_at desc, id desc): opaque to clients. */
export interface CreatedCursor {
  createdAt: Date;
  id: string;
}

export function encodeCursor(cursor: CreatedCursor): string {
  return Buffer.from(`${cursor.createdAt.toISOString()}|${cursor.id}`).toString("base64url");
}

export function decodeCursor(value: string): CreatedCursor {
  const [iso, id] = Buffer.from(value, "base64url").toString("utf8").split("|");
  const createdAt = new Date(iso ?? "");
  if (!id || !/^[0-9a-f-]{36}$/i.test(id) || Number.isNaN(createdAt.getTime())) {
    throw new AppError("BAD_REQUEST", "Cursor de paginação inválido.");
  }
  return { createdAt, id };
}
