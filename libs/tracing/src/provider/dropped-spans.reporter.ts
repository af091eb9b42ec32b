import type { Logger } from '@nestjs/common';

/** How often at most a warning about dropped spans is logged. */
const WARNING_INTERVAL_MS = 10_000;

/**
 * Counts spans that never reach the collector (queue full, export failed or timed out) and says
 * so in a warning, at most every ten seconds so that a collector that is down cannot flood the log.
 */
export class DroppedSpansReporter {
  private total = 0;
  private unreported = 0;
  private lastWarning = -Infinity;

  constructor(
    private readonly logger: Logger,
    private readonly endpoint: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Spans dropped so far. */
  get dropped(): number {
    return this.total;
  }

  /** Records `count` dropped spans and why. */
  add(count: number, reason: string): void {
    this.total += count;
    this.unreported += count;
    if (this.now() - this.lastWarning < WARNING_INTERVAL_MS) return;
    this.lastWarning = this.now();
    this.logger.warn(
      `dropped ${this.unreported} span(s) for ${this.endpoint} (${this.total} in total): ${reason}`,
    );
    this.unreported = 0;
  }
}
