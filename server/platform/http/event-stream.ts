/**
 * A server-sent-event response (the quote, competition and message streams): the reply is hijacked, so it
 * skips Fastify's sending and the headers its hooks set on it (CORS, helmet's security headers) are copied into
 * the raw head here; then the event-stream head and the browser's reconnection delay.
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

/** The delay a browser waits before it reconnects a dropped stream (the `retry:` field). */
const RETRY_MS = 2000;

export function openEventStream(reply: FastifyReply): ServerResponse {
  const inherited: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) inherited[name] = value;
  }
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    ...inherited,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.write(`retry: ${RETRY_MS}\n\n`);
  return res;
}
