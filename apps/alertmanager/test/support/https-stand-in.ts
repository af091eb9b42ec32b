import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { makeServerCertificate } from './test-certificates';

/** Where a stand-in's requests go: records each one under the stand-in's path. */
export interface RequestSink {
  record(path: string, headers: IncomingHttpHeaders, text: string): void;
}

/** A CONNECT request the proxy received. */
export interface ProxyConnect {
  authority: string;
  headers: IncomingHttpHeaders;
}

const listen = (server: Server | HttpsServer) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

/**
 * A service's fixed HTTPS endpoint (PagerDuty's Events API v1 `events.pagerduty.com` unless
 * another host is given, Pushover's `api.pushover.net`), stood in for on loopback the way a user
 * would reach it from behind a proxy: a real HTTP proxy that accepts `CONNECT <host>:443` and
 * tunnels it to a real HTTPS server with a certificate for that name, signed by a CA the
 * configuration trusts (`tls_config.ca_file`). Each request it decrypts is recorded in the sink
 * under `path`, as if the sink had received it.
 */
export class HttpsStandIn {
  readonly connects: ProxyConnect[] = [];
  proxyUrl = '';
  caFile = '';
  private https: HttpsServer | undefined;
  private proxy: Server | undefined;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly collector: RequestSink,
    private readonly path: string,
    private readonly host = 'events.pagerduty.com',
  ) {}

  /** Makes the certificates in `dir` and starts both servers. */
  async start(dir: string): Promise<this> {
    const pki = await makeServerCertificate(dir, this.host);
    this.caFile = pki.ca;
    const [cert, key] = await Promise.all([readFile(pki.cert), readFile(pki.key)]);
    this.https = createHttpsServer({ cert, key }, (req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        this.collector.record(this.path, req.headers, text);
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":"success"}');
      });
    });
    const httpsPort = await listen(this.https);
    this.proxy = createHttpServer((_req, res) => res.writeHead(405).end());
    this.proxy.on('connect', (req, client: Socket, head: Buffer) => {
      this.connects.push({ authority: req.url ?? '', headers: req.headers });
      if (req.url !== `${this.host}:443`) {
        client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
        return;
      }
      const upstream = connect(httpsPort, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client).pipe(upstream);
      });
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
    });
    this.proxyUrl = `http://127.0.0.1:${await listen(this.proxy)}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await Promise.all(
      [this.proxy, this.https].map(
        (server) => new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined))),
      ),
    );
  }
}
