import type { Labels } from '../labels';
import type { CircularExemplarStore } from './circular-exemplar-store';
import { ExemplarRefusal, type Exemplar } from './exemplar';

/**
 * One batch of exemplars, as upstream's appender takes them: each checked against the store when
 * added (a duplicate, or one the store is disabled for, dropped quietly; an out-of-order or
 * too-long one refused), all stored at {@link commit}.
 */
export class ExemplarAppender {
  private readonly pending: [Labels, Exemplar][] = [];

  constructor(private readonly store: CircularExemplarStore) {}

  /** Takes an exemplar of a series; returns why it is refused, when it is. */
  add(series: Labels, exemplar: Exemplar): ExemplarRefusal | undefined {
    const refusal = this.store.validate(series, exemplar);
    if (refusal === ExemplarRefusal.duplicate || refusal === ExemplarRefusal.disabled) {
      return undefined;
    }
    if (refusal !== undefined) return refusal;
    this.pending.push([series, exemplar]);
    return undefined;
  }

  /** Stores the exemplars taken, in order. */
  commit(): void {
    for (const [series, exemplar] of this.pending) this.store.add(series, exemplar);
    this.pending.length = 0;
  }
}
