import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the loopback API received. */
export interface ApiRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** An answer: status and body. */
export interface ApiReply {
  status: number;
  body: string;
}

/** What the real services answer on success where the notifier reads the answer. */
function successFor(url: string): string {
  if (url.includes('/sendMessage')) return '{"ok":true,"result":{"message_id":1,"chat":{"id":42}}}';
  if (url.includes('/gettoken')) return '{"errcode":0,"errmsg":"ok","access_token":"tok"}';
  if (url.includes('/message/send')) return '{"errcode":0,"errmsg":"ok"}';
  if (url.includes('/chat.postMessage')) return '{"success":true}';
  if (url.includes('/search')) return '{"issues":[]}';
  return '';
}

/**
 * A real HTTP server on loopback standing in for the chat and paging APIs: it records every
 * request and answers each with the next scripted reply, then with the service's success.
 */
export class LoopbackApi {
  readonly requests: ApiRequest[] = [];
  private readonly script: ApiReply[] = [];
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = req.url ?? '';
        this.requests.push({
          method: req.method ?? '',
          url,
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
        });
        const reply = this.script.shift() ?? { status: 200, body: successFor(url) };
        res.writeHead(reply.status, { 'Content-Type': 'application/json' }).end(reply.body);
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** The next requests get these answers, in order. */
  reply(...replies: ApiReply[]): void {
    this.script.push(...replies);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}
