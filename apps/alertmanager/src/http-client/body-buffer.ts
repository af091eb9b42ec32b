/** A body that used less than this share of the buffer is a small one. */
const SHRINK_BELOW = 4;
/** After this many small bodies in a row, the buffer gives its room back. */
const SMALL_BODIES = 8;

/**
 * Memory that a caller sending one request at a time (a scrape loop) reuses for the bodies of its
 * responses, as Prometheus's scrape loops reuse theirs: each body is copied into it as its pieces
 * arrive, so a scrape leaves no body behind for the garbage collector (a new body each scrape of
 * a large target was garbage that reached V8's old generation, and with it the heap's high-water
 * mark, before a full collection freed it). A body read into it is valid until the next one is.
 */
export class BodyBuffer {
  private buffer = Buffer.alloc(0);
  private size = 0;
  /** Bodies in a row that used less than a quarter of the buffer. */
  private small = 0;

  /** Starts a body of `expected` bytes if known (from `Content-Length`). */
  begin(expected: number | undefined): void {
    const capacity = this.buffer.length;
    const wanted = expected ?? 0;
    this.small = this.size * SHRINK_BELOW < capacity ? this.small + 1 : 0;
    if (wanted > capacity || this.small >= SMALL_BODIES) {
      this.buffer = Buffer.allocUnsafe(Math.max(wanted, this.size));
      this.small = 0;
    }
    this.size = 0;
  }

  /** Appends a piece of the body. */
  append(piece: Uint8Array): void {
    const needed = this.size + piece.length;
    if (needed > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.buffer.length * 2));
      this.buffer.copy(grown, 0, 0, this.size);
      this.buffer = grown;
    }
    this.buffer.set(piece, this.size);
    this.size = needed;
  }

  /** Bytes it holds room for. */
  get capacity(): number {
    return this.buffer.length;
  }

  /** The body read since `begin` (a view of the reused memory). */
  get bytes(): Buffer {
    return this.buffer.subarray(0, this.size);
  }
}

/**
 * The body buffers of callers that take turns (the scrape loops of one job, whose scrapes are
 * spread over the interval): a scrape takes the free buffer nearest in size to its target's last
 * body and gives it back once the body is parsed, so a job's targets hold about as many buffers
 * as scrapes run at once rather than one each.
 */
export class BodyBufferPool {
  private readonly free: BodyBuffer[] = [];

  constructor(private readonly keep = 2) {}

  /** A buffer for a body of about `bytes` bytes. */
  take(bytes: number): BodyBuffer {
    let best = -1;
    for (let i = 0; i < this.free.length; i++) {
      const gap = Math.abs(this.free[i].capacity - bytes);
      if (best < 0 || gap < Math.abs(this.free[best].capacity - bytes)) best = i;
    }
    return best < 0 ? new BodyBuffer() : this.free.splice(best, 1)[0];
  }

  /** Gives a buffer back; beyond `keep` free ones, the smallest is let go. */
  give(buffer: BodyBuffer): void {
    this.free.push(buffer);
    if (this.free.length <= this.keep) return;
    let smallest = 0;
    for (let i = 1; i < this.free.length; i++) {
      if (this.free[i].capacity < this.free[smallest].capacity) smallest = i;
    }
    this.free.splice(smallest, 1);
  }
}
