import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { DecodeReply, DecodeRequest } from './decode-thread.entry';
import { receivedSamples, type ReceivedSamples, type RefusedWrite } from './received-samples';

/** Bodies up to this size decode on the calling thread: a few milliseconds, less than a hand-over. */
const INLINE_BYTES = 32 * 1024;
/** How long the decoding thread stays without a body before it ends. */
const IDLE_MS = 60_000;

type Decoded = ReceivedSamples | RefusedWrite;

/**
 * Decodes remote-write bodies (snappy, protobuf, the series' checks): small ones at once, larger
 * ones (up to `--web.max-request-bytes`, where decoding takes tens to hundreds of milliseconds) on
 * a thread of their own, started by the first such body and ended after a minute without one, so
 * the event loop that takes alerts never decodes them.
 */
export class WriteDecoder {
  private worker: Worker | undefined;
  private readonly waiting = new Map<
    number,
    { resolve: (decoded: Decoded) => void; reject: (error: Error) => void }
  >();
  private nextId = 0;
  private idle: NodeJS.Timeout | undefined;

  constructor(private readonly inlineBytes = INLINE_BYTES) {}

  decode(body: Uint8Array): Promise<Decoded> {
    if (body.length <= this.inlineBytes) return Promise.resolve(receivedSamples(body));
    const worker = this.thread();
    clearTimeout(this.idle);
    const id = this.nextId++;
    // The body may share its buffer with others (Node's pool): a copy of it moves to the thread.
    const copy = new Uint8Array(body);
    const request: DecodeRequest = { id, body: copy };
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage(request, [copy.buffer]);
    });
  }

  async close(): Promise<void> {
    clearTimeout(this.idle);
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new Error('shutting down'));
    await worker?.terminate();
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(decodeThreadEntry());
    worker.unref();
    worker.on('message', ({ id, reply }: { id: number; reply: DecodeReply }) => {
      const waiting = this.waiting.get(id);
      this.waiting.delete(id);
      if (reply.kind === 'failed') waiting?.reject(new Error(reply.message));
      else waiting?.resolve(reply);
      if (this.waiting.size === 0) {
        this.idle = setTimeout(() => void this.end(worker), IDLE_MS).unref();
      }
    });
    worker.on('error', (error) => this.failAll(error));
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(new Error('remote write decoding thread exited'));
    });
    this.worker = worker;
    return worker;
  }

  private async end(worker: Worker): Promise<void> {
    if (this.worker !== worker || this.waiting.size > 0) return;
    this.worker = undefined;
    await worker.terminate();
  }

  private failAll(error: Error): void {
    for (const { reject } of this.waiting.values()) reject(error);
    this.waiting.clear();
  }
}

/**
 * The compiled entry of the decoding thread, beside this module (or, from the server's bundle in
 * `dist/bundle/`, in `dist/remote-write/`). Tests run the sources, which a thread cannot load: they
 * use the build's copy, which `npm test` makes first.
 */
function decodeThreadEntry(): string {
  const name = 'decode-thread.entry.js';
  for (const candidate of [join(__dirname, name), join(__dirname, '..', 'remote-write', name)]) {
    if (existsSync(candidate)) return candidate;
  }
  return join(__dirname, name).replace(`${sep}src${sep}`, `${sep}dist${sep}`);
}
