import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isStaleNaN } from '../staleness';
import { decodeWriteRequest, timestampMs } from '../write-request-codec';

/** One sample as a receiver got it: its series' labels in wire order, and whether it was stale. */
export interface ReceivedSample {
  readonly labels: Record<string, string>;
  /** The label names in the order they came. */
  readonly names: readonly string[];
  readonly t: number;
  readonly v: number;
  readonly stale: boolean;
}

/** One request a {@link WriteCollector} answered. */
export interface ReceivedRequest {
  readonly headers: IncomingHttpHeaders;
  readonly status: number;
  readonly samples: readonly ReceivedSample[];
}

/**
 * A loopback remote-write endpoint for tests: decodes every request with the same schema the
 * sender uses and answers what `answer` says (204 by default). Only taken (2xx) samples count
 * in `samples`.
 */
export class WriteCollector {
  readonly requests: ReceivedRequest[] = [];
  answer: () => number = () => 204;
  private server: Server | undefined;
  url = '';

  get samples(): ReceivedSample[] {
    return this.requests.filter((r) => r.status < 300).flatMap((r) => r.samples);
  }

  /** Listens on loopback, on `port` when given (a receiver that comes back where it was). */
  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const request = decodeWriteRequest(Buffer.concat(chunks));
        const samples = request.timeseries.flatMap((ts) =>
          ts.samples.map((s) => ({
            labels: Object.fromEntries(ts.labels.map((l) => [l.name, l.value])),
            names: ts.labels.map((l) => l.name),
            t: timestampMs(s.timestamp),
            v: s.value,
            stale: isStaleNaN(s.value),
          })),
        );
        const status = this.answer();
        this.requests.push({ headers: req.headers, status, samples });
        res.writeHead(status).end(status >= 300 ? `answer ${status}\nsecond line` : undefined);
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/receive`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
