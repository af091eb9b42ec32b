import { nextTurn } from './next-turn';

/**
 * Long work in slices of about `ms` milliseconds that yield to the event loop between them:
 * `if (slices.due()) await slices.next();` between items. The clock is read every `every` items
 * only, so a cheap item costs a counter.
 */
export class TimeSlices {
  private sliceStart = performance.now();
  private items = 0;

  constructor(
    private readonly ms: number,
    private readonly every = 64,
  ) {}

  /** Whether the slice has run its time (checked every `every` calls). */
  due(): boolean {
    return ++this.items % this.every === 0 && performance.now() - this.sliceStart >= this.ms;
  }

  /** Lets the event loop turn, then starts the next slice. */
  async next(): Promise<void> {
    await nextTurn();
    this.sliceStart = performance.now();
  }
}
