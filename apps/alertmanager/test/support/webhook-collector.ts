import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '@redisx/testing';

/** One request a receiver got: when, where, what. */
export interface Delivery {
  at: number;
  path: string;
  headers: IncomingHttpHeaders;
  body: WebhookBody;
}

/** The fields of Alertmanager's webhook payload (version 4) that tests look at. */
export interface WebhookBody {
  receiver: string;
  status: 'firing' | 'resolved';
  alerts: {
    status: string;
    labels: Record<string, string>;
    annotations: Record<string, string>;
    startsAt: string;
    endsAt: string;
    generatorURL: string;
    fingerprint: string;
  }[];
  groupLabels: Record<string, string>;
  commonLabels: Record<string, string>;
  commonAnnotations: Record<string, string>;
  externalURL: string;
  version: string;
  groupKey: string;
  truncatedAlerts: number;
}

/**
 * A real HTTP receiver on loopback that records every webhook delivery. `failNext(n, status)`
 * makes the next `n` requests fail, to exercise retries.
 */
export class WebhookCollector {
  readonly deliveries: Delivery[] = [];
  private readonly failures = new Map<string, number[]>();
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        const status = this.failures.get(req.url ?? '')?.shift();
        if (status !== undefined) {
          res.writeHead(status).end('failing on purpose');
          return;
        }
        this.record(req.url ?? '', req.headers, text);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Records a delivery that reached the test another way (see `HttpsStandIn`). */
  record(path: string, headers: IncomingHttpHeaders, text: string): void {
    this.deliveries.push({ at: Date.now(), path, headers, body: JSON.parse(text) });
  }

  /** The next `count` requests to `path` answer `status` instead of 200. */
  failNext(path: string, count: number, status = 500): void {
    const queue = this.failures.get(path) ?? [];
    this.failures.set(path, [...queue, ...Array<number>(count).fill(status)]);
  }

  /** Deliveries to one path (each receiver gets its own path in the tests' configs). */
  to(path: string): Delivery[] {
    return this.deliveries.filter((d) => d.path === path);
  }

  /** Waits until `path` has received at least `count` deliveries. */
  async waitFor(path: string, count: number, timeoutMs = 15_000): Promise<Delivery[]> {
    await waitFor(
      `${count} deliveries to ${path}`,
      () => this.to(path).length >= count,
      timeoutMs,
      10,
    );
    return this.to(path);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}
