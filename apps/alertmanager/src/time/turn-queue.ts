/**
 * Lets waiters go one per turn of the event loop, in order: work that would otherwise start all
 * at once (every aggregation group whose timer fired in the same tick) takes turns, and the loop
 * serves I/O (alert intake, `/-/healthy`) between any two of them.
 */
export class TurnQueue {
  private readonly waiting: (() => void)[] = [];
  private scheduled = false;

  /** Resolves in a later turn of the event loop than any waiter before it. */
  take(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // An immediate set from an immediate runs in the next turn, after the loop has polled I/O.
    setImmediate(() => {
      this.scheduled = false;
      this.waiting.shift()?.();
      if (this.waiting.length > 0) this.schedule();
    });
  }
}
