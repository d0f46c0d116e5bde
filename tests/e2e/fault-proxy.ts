/**
 * A fault-injecting HTTP proxy between Chromium and the test station, for the flaky-network tests: the
 * browser opens the proxy's address as the app's origin and every request goes through it to the station.
 * Rules say which requests meet which fault, chosen by method and path and counted (the first n matching,
 * after skipping some), never at random, so a test is the same on every run.
 *
 * Faults: `reset` (the connection is cut before anything reaches the station), `drop` (the request is held
 * and never answered, as a lost packet: the client's own timeout decides), `delay` (sent on after a pause),
 * `lose-answer` (the station receives and handles the request, its answer is cut on the way back).
 *
 * Every answer says `Connection: close`: Chromium sends a request again by itself when a reused connection
 * is cut before an answer, which would hide a fault; on fresh connections it reports the fault instead.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export type Fault =
  { kind: 'reset' } | { kind: 'drop' } | { kind: 'delay'; ms: number } | { kind: 'lose-answer' };

export interface FaultRule {
  /** Only this method ('GET', 'POST'); any by default. */
  method?: string;
  /** The path without its query: exactly this string, or matching this pattern. */
  path: string | RegExp;
  fault: Fault;
  /** How many matching requests meet the fault (1 by default). */
  times?: number;
  /** How many matching requests pass untouched before the fault applies (0 by default). */
  skip?: number;
}

export interface FaultProxy {
  url: string;
  port: number;
  /** 'METHOD /path' of every request the proxy received, in order. */
  requests: string[];
  /** 'fault METHOD /path' of every fault applied, in order. */
  applied: string[];
  /** Adds a rule; rules are looked at in the order they were added. */
  add(rule: FaultRule): void;
  /** Removes every rule (held requests stay held until close). */
  clear(): void;
  close(): Promise<void>;
}

interface LiveRule extends FaultRule {
  left: number;
  skipLeft: number;
}

function matches(rule: LiveRule, method: string, path: string): boolean {
  if (rule.method !== undefined && rule.method !== method) return false;
  return typeof rule.path === 'string' ? rule.path === path : rule.path.test(path);
}

export async function startFaultProxy(stationUrl: string): Promise<FaultProxy> {
  const target = new URL(stationUrl);
  const rules: LiveRule[] = [];
  const requests: string[] = [];
  const applied: string[] = [];
  const sockets = new Set<Socket>();

  /** Sends the request on to the station; `deliver` false reads the answer to its end and cuts the connection. */
  const forward = (req: IncomingMessage, res: ServerResponse, deliver: boolean) => {
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, connection: 'close' },
        agent: false,
      },
      (answer) => {
        if (!deliver) {
          answer.resume();
          answer.on('end', () => req.socket.destroy());
          return;
        }
        const headers: Record<string, string | string[] | undefined> = {
          ...answer.headers,
          connection: 'close',
        };
        delete headers['keep-alive'];
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => req.socket.destroy());
    // A client gone (a cut connection, the browser closed) ends the station's side too: an open event
    // stream would otherwise keep the station from closing.
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  };

  const server = createServer((req, res) => {
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    requests.push(`${method} ${path}`);
    const rule = rules.find((r) => r.left > 0 && matches(r, method, path));
    let fault: Fault | null = null;
    if (rule) {
      if (rule.skipLeft > 0) rule.skipLeft -= 1;
      else {
        rule.left -= 1;
        fault = rule.fault;
        applied.push(`${fault.kind} ${method} ${path}`);
      }
    }
    switch (fault?.kind) {
      case 'reset':
        req.socket.destroy();
        return;
      case 'drop':
        // Held: the socket is only cut when the proxy closes.
        req.resume();
        return;
      case 'delay':
        setTimeout(() => forward(req, res, true), fault.ms);
        return;
      case 'lose-answer':
        forward(req, res, false);
        return;
      default:
        forward(req, res, true);
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the fault proxy did not get a TCP port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    requests,
    applied,
    add(rule) {
      rules.push({ ...rule, left: rule.times ?? 1, skipLeft: rule.skip ?? 0 });
    },
    clear() {
      rules.length = 0;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolveClose) => server.close(() => resolveClose()));
    },
  };
}
