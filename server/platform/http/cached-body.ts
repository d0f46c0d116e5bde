/**
 * Serialised (and compressed) answers kept for as long as their data cannot change: a quote page for the
 * clock second it was computed in, a bar series until its last bar moves. A hit skips the serialiser and the
 * compressor, which are where a market call's time goes; a miss costs one JSON.stringify and one compression
 * per encoding asked for. The bodies are the same bytes the schema serialiser would write: callers pass only
 * objects whose fields are exactly their response schema's.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

type Encoding = 'br' | 'gzip' | 'identity';

interface Entry {
  json: string;
  br?: Buffer;
  gzip?: Buffer;
}

/** Below this many bytes a body goes out as it is (as @fastify/compress's threshold does). */
const THRESHOLD = 1024;

/** Answers of pickEncoding by header text: clients send a handful of different headers. */
const encodingByHeader = new Map<string, Encoding>();

/** The best encoding the client accepts: br, then gzip, else none (a token with q=0 is refused). */
export function pickEncoding(header: string | string[] | undefined): Encoding {
  const raw = Array.isArray(header) ? header.join(',') : (header ?? '');
  let encoding = encodingByHeader.get(raw);
  if (encoding === undefined) {
    encoding = parseEncoding(raw);
    if (encodingByHeader.size >= 256) encodingByHeader.clear();
    encodingByHeader.set(raw, encoding);
  }
  return encoding;
}

function parseEncoding(raw: string): Encoding {
  const accepted = new Set<string>();
  for (const part of raw.split(',')) {
    const [rawName, ...params] = part.toLowerCase().split(';');
    const name = rawName?.trim();
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
    if (q && Number(q[1]) === 0) continue;
    accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return 'identity';
}

export class BodyCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The entry of `key`, made from `build()` on a miss; least recently used entries go first. */
  private entry(key: string, build: () => unknown): Entry {
    let entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
    } else {
      entry = { json: JSON.stringify(build()) };
      if (this.entries.size >= this.capacity) {
        const oldest = this.entries.keys().next();
        if (!oldest.done) this.entries.delete(oldest.value);
      }
    }
    this.entries.set(key, entry);
    return entry;
  }

  /** Sends the cached body of `key` (built from `build()` on a miss) in the encoding the request accepts. */
  send(request: FastifyRequest, reply: FastifyReply, key: string, build: () => unknown): FastifyReply {
    const entry = this.entry(key, build);
    reply.header('content-type', 'application/json; charset=utf-8');
    reply.header('vary', 'accept-encoding, accept-language');
    const encoding =
      entry.json.length < THRESHOLD ? 'identity' : pickEncoding(request.headers['accept-encoding']);
    // Left to the global compressor: small bodies (it leaves them too) and clients without br or gzip.
    if (encoding === 'identity') return reply.send(entry.json);
    if (encoding === 'br') {
      entry.br ??= brotliCompressSync(entry.json, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 4,
          [constants.BROTLI_PARAM_SIZE_HINT]: entry.json.length,
        },
      });
      reply.header('content-encoding', 'br');
      return reply.send(entry.br);
    }
    entry.gzip ??= gzipSync(entry.json, { level: 6 });
    reply.header('content-encoding', 'gzip');
    return reply.send(entry.gzip);
  }
}
