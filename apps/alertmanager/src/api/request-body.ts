import type { IncomingMessage } from 'node:http';
import { lingerAfterRefusal } from './linger-close';

/** A request whose body is longer than `--web.max-request-bytes`. */
export class RequestTooLargeError extends Error {
  override readonly name = 'RequestTooLargeError';

  constructor(readonly limit: number) {
    super(`request body is larger than ${limit} bytes, the limit set by --web.max-request-bytes`);
  }
}

/** Bodies declared longer than this are read into a buffer allocated up front. */
const PREALLOCATE_FROM = 1024 * 1024;

/** A request as Express may hand it over when a body parser already read it. */
type Request = IncomingMessage & { rawBody?: Buffer; body?: unknown };

/**
 * Reads request bodies as raw bytes, up to `--web.max-request-bytes` (0 for no limit): a body
 * declared longer is refused before a byte of it is read, and one that turns out longer while
 * it streams in (chunked) is refused as soon as it passes the limit, so that no request can make
 * the server buffer more than the limit.
 */
export class RequestBodyReader {
  constructor(readonly maxBytes: number) {}

  /** Whether the request declares (`Content-Length`) a body longer than the limit. */
  declaresTooMuch(req: Pick<IncomingMessage, 'headers'>): boolean {
    const declared = req.headers['content-length'];
    return this.maxBytes > 0 && declared !== undefined && Number(declared) > this.maxBytes;
  }

  /**
   * The whole body. Rejects with {@link RequestTooLargeError} past the limit, and with the
   * stream's error (`aborted`) when the client goes away first.
   */
  read(req: Request): Promise<Buffer> {
    if (req.rawBody) return Promise.resolve(req.rawBody);
    if (req.readableEnded) {
      return Promise.resolve(Buffer.from(req.body === undefined ? '' : JSON.stringify(req.body)));
    }
    if (this.declaresTooMuch(req)) {
      lingerAfterRefusal(req);
      return Promise.reject(new RequestTooLargeError(this.maxBytes));
    }
    return this.readStream(req);
  }

  // Listens for the stream's events rather than iterating it: the body is usually one chunk, and
  // an async iterator costs more per request than the read. A long body with a declared length
  // is copied into one buffer as it arrives: joining tens of megabytes at the end would hold the
  // event loop while the memory is first touched.
  private readStream(req: IncomingMessage): Promise<Buffer> {
    const declared = Number(req.headers['content-length']);
    const into = declared > PREALLOCATE_FROM ? Buffer.allocUnsafe(declared) : undefined;
    return new Promise((resolve, reject) => {
      let first: Buffer | undefined;
      let chunks: Buffer[] | undefined;
      let bytes = 0;
      const onData = (chunk: Buffer) => {
        if (this.maxBytes > 0 && bytes + chunk.length > this.maxBytes) {
          cleanup();
          // Nothing more of this body is wanted: let it drain without keeping it.
          lingerAfterRefusal(req);
          reject(new RequestTooLargeError(this.maxBytes));
          return;
        }
        // Node's parser never delivers more than the declared length.
        if (into) chunk.copy(into, bytes);
        else if (first === undefined) first = chunk;
        else (chunks ??= [first]).push(chunk);
        bytes += chunk.length;
      };
      const onEnd = () => {
        cleanup();
        if (into) resolve(into.subarray(0, bytes));
        else resolve(chunks ? Buffer.concat(chunks, bytes) : (first ?? Buffer.alloc(0)));
      };
      const onError = (error: Error) => {
        cleanup();
        reject(error);
      };
      const onClose = () => {
        if (req.readableEnded) return;
        cleanup();
        reject(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
      };
      const cleanup = () => {
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('error', onError);
        req.off('close', onClose);
      };
      req.on('data', onData);
      req.on('end', onEnd);
      req.on('error', onError);
      req.on('close', onClose);
    });
  }
}
