/**
 * Answers to requests Node's HTTP parser refuses before Fastify sees them (a malformed request line, headers
 * over the size limit, a request that never finished): the same JSON envelope as every other answer, in
 * the station's base language (the request's Accept-Language was never read), then the connection closes.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FailEnvelope } from '../../../src/shared/api/envelope';
import type { Translator } from '../i18n';

interface ParserError extends Error {
  code?: string;
}

export function clientErrorHandler(translator: Translator): (error: ParserError, socket: Socket) => void {
  return (error, socket) => {
    // Nothing to answer on a connection the client reset or that is already gone.
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status =
      error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const messages = translator.messages(undefined);
    const body: FailEnvelope = {
      status,
      code: 'VALIDATION',
      msg: messages.error(status === 431 ? 'BODY_TOO_LARGE' : 'BAD_REQUEST_BODY', {}),
    };
    const text = JSON.stringify(body);
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(text)}\r\n` +
        'Connection: close\r\n\r\n' +
        text,
    );
  };
}
