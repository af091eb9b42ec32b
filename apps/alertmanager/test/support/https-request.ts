import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';
import { readFileSync } from 'node:fs';
import type { PeerCertificate, TLSSocket } from 'node:tls';

/** A client's TLS material, as PEM file paths. */
export interface ClientTls {
  ca?: string;
  cert?: string;
  key?: string;
}

/** One request of a test: method, path, basic auth, body; `agent` reuses a connection. */
export interface TestRequest {
  method?: string;
  auth?: string;
  body?: string;
  headers?: Record<string, string>;
  tls?: ClientTls;
  agent?: Agent;
}

/** What came back, with the server's certificate subject when over TLS. */
export interface TestResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  peerCN?: string;
}

/**
 * Sends one request with Node's own client (global `fetch` takes no CA or client certificate).
 * Without an `agent`, each request opens a new connection, so it meets the server's TLS setup
 * of that moment.
 */
export function testRequest(url: string, req: TestRequest = {}): Promise<TestResponse> {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  const read = (path?: string) => (path ? readFileSync(path) : undefined);
  const headers: Record<string, string> = { ...req.headers };
  if (req.auth) headers.Authorization = `Basic ${Buffer.from(req.auth).toString('base64')}`;
  if (req.body !== undefined) headers['Content-Type'] ??= 'application/json';
  const options = {
    method: req.method ?? 'GET',
    headers,
    agent: req.agent ?? false,
    ...(secure
      ? { ca: read(req.tls?.ca), cert: read(req.tls?.cert), key: read(req.tls?.key) }
      : {}),
  };
  return new Promise((resolve, reject) => {
    const send = secure ? httpsRequest : httpRequest;
    const request = send(target, options, (res) => {
      const socket = res.socket as TLSSocket;
      const peer: PeerCertificate | undefined = secure ? socket.getPeerCertificate() : undefined;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          peerCN: peer?.subject?.CN as string | undefined,
        }),
      );
      res.on('error', reject);
    });
    request.on('error', reject);
    request.setTimeout(10_000, () => request.destroy(new Error('timed out')));
    request.end(req.body);
  });
}
