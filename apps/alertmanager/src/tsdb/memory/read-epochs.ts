/**
 * When memory that readers on other threads may still be in can be reused. Each read takes the
 * current epoch; memory unlinked from the store is retired with a release that runs once every
 * read that started before the retirement has ended (reads that start later cannot reach it).
 * Reads on the writing thread itself need none: they never overlap a retirement.
 */
export class ReadEpochs {
  private epoch = 0;
  private nextToken = 0;
  /** The epoch each running read started in, by token. */
  private readonly reads = new Map<number, number>();
  private readonly retired: { epoch: number; release: () => void }[] = [];

  /** Starts a read; its token ends it. */
  begin(): number {
    const token = this.nextToken++;
    this.reads.set(token, this.epoch);
    return token;
  }

  end(token: number): void {
    this.reads.delete(token);
    this.collect();
  }

  /** Runs `release` once no read that is running now is left. */
  retire(release: () => void): void {
    if (this.reads.size === 0) {
      release();
      return;
    }
    this.retired.push({ epoch: this.epoch, release });
    this.epoch++;
  }

  /** Retirements still waiting for reads. */
  get pending(): number {
    return this.retired.length;
  }

  private collect(): void {
    let oldest = Infinity;
    for (const epoch of this.reads.values()) oldest = Math.min(oldest, epoch);
    let done = 0;
    while (done < this.retired.length && this.retired[done].epoch < oldest) {
      this.retired[done].release();
      done++;
    }
    if (done > 0) this.retired.splice(0, done);
  }
}
