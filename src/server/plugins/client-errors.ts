/**
 * Answers to requests Node's HTTP parser refuses before Fastify sees them (decision 049): a
 * malformed request line or header, conflicting Content-Length and Transfer-Encoding, a bad chunk,
 * headers past 16 KB. Node's default is English ("Bad Request", "Client Error"); these say it in
 * Portuguese, as JSON like every other error of the API, and close the connection.
 */
import type { Socket } from "node:net";

const ANSWERS: Record<string, { status: number; reason: string; code: string; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: "Request Header Fields Too Large",
    code: "HEADERS_TOO_LARGE",
    message: "Os cabeçalhos ou o endereço da requisição são grandes demais.",
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: "Request Timeout",
    code: "REQUEST_TIMEOUT",
    message: "A requisição demorou demais para chegar.",
  },
};
const MALFORMED = { status: 400, reason: "Bad Request", code: "BAD_REQUEST", message: "Requisição HTTP malformada." };

/** The raw response for a parser error `code` (exported for the tests). */
export function clientErrorResponse(code: string | undefined): string {
  const answer = (code && ANSWERS[code]) || MALFORMED;
  const body = JSON.stringify({ code: answer.code, message: answer.message });
  return (
    `HTTP/1.1 ${answer.status} ${answer.reason}\r\n` +
    "Content-Type: application/json; charset=utf-8\r\n" +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    "Connection: close\r\n\r\n" +
    body
  );
}

/** Fastify's `clientErrorHandler`. */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  // A reset peer or a socket already answered: nothing to say.
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(clientErrorResponse(error.code));
}
