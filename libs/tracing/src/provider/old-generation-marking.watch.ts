import { GCProfiler, getHeapSpaceStatistics } from 'node:v8';

/** What the watch needs to know of V8's garbage collections, and how it moves them along. */
export interface CollectionEvents {
  /** Stops recording and returns the kinds of collection since the start, oldest first. */
  stop(): string[];
  /**
   * Allocates short-lived filler until V8 has made a collection of `kind` (or at most
   * {@link MAX_FILLER_BYTES}); returns the kinds of collection meanwhile.
   */
  allocateUntil(kind: CollectionKind): string[];
}

/** V8's names: a collection of the young generation, and a full one. */
export type CollectionKind = 'Scavenge' | 'MarkSweepCompact';

/** Waits for a delay; returns what cancels it. */
export type Delay = (ms: number, callback: () => void) => () => void;

/** How long the recording runs at most when the application never starts (or never closes). */
export const RECORDING_LIMIT_MS = 120_000;
/** The most filler one wait allocates: far more than V8 needs for either collection. */
export const MAX_FILLER_BYTES = 256 * 1024 * 1024;

/**
 * Brings V8 to a moment when it is not marking the old generation, for work whose objects V8 must
 * see die young (see `warmUpSpanAllocation`). V8 marks the old generation incrementally, alongside
 * the program, and what is allocated meanwhile counts as alive at the full collection that ends
 * the marking. A marking starts when the old generation has grown enough, most often through what
 * a collection of the young generation promotes, and it advances with allocation.
 *
 * So, from the collections recorded since the watch started: first a collection of the young
 * generation is brought about, so that none comes (and starts a marking) during the work; then, if
 * a marking is under way (V8's `IncrementalMarking` not yet ended by a `MarkSweepCompact`), filler
 * is allocated until the full collection that ends it.
 */
export class OldGenerationMarkingWatch {
  private recording = true;
  private readonly cancelLimit: () => void;

  constructor(
    private readonly events: CollectionEvents = v8CollectionEvents(),
    delay: Delay = unrefDelay,
  ) {
    this.cancelLimit = delay(RECORDING_LIMIT_MS, () => this.stopRecording());
  }

  /** A watch of this process's V8, or null where its GC profiler is not available. */
  static start(
    events: () => CollectionEvents = v8CollectionEvents,
  ): OldGenerationMarkingWatch | null {
    try {
      return new OldGenerationMarkingWatch(events());
    } catch {
      return null;
    }
  }

  /** Runs `action` at a moment when V8 is not marking the old generation (see above). */
  runWhenNotMarking(action: () => void): void {
    this.cancelLimit();
    const kinds = [...this.stopRecording(), ...this.events.allocateUntil('Scavenge')];
    if (markingUnderWay(kinds)) this.events.allocateUntil('MarkSweepCompact');
    action();
  }

  /** Stops recording. */
  close(): void {
    this.cancelLimit();
    this.stopRecording();
  }

  private stopRecording(): string[] {
    if (!this.recording) return [];
    this.recording = false;
    return this.events.stop();
  }
}

/** Whether the last incremental marking begun has not been ended by a full collection yet. */
export function markingUnderWay(kinds: readonly string[]): boolean {
  return kinds.lastIndexOf('IncrementalMarking') > kinds.lastIndexOf('MarkSweepCompact');
}

/** Filler arrays of about 8 kB. */
const FILLER_LENGTH = 1_024;
const FILLER_BYTES = FILLER_LENGTH * 8;

/** V8's own account of its collections (its GC profiler), moved along by short-lived filler. */
export function v8CollectionEvents(): CollectionEvents {
  const profiler = new GCProfiler();
  profiler.start();
  return {
    stop: () => kindsOf(profiler),
    allocateUntil(kind) {
      const meanwhile = new GCProfiler();
      meanwhile.start();
      const kinds: string[] = [];
      const filler: number[][] = [];
      let young = youngGenerationUsed();
      for (let round = 1; round <= MAX_FILLER_BYTES / FILLER_BYTES; round++) {
        filler[round % 16] = new Array<number>(FILLER_LENGTH).fill(round);
        if (round % 16 !== 0) continue;
        // Reading the profiler stops it; the young generation's use drops at every collection.
        const now = youngGenerationUsed();
        const collected = now < young;
        young = now;
        if (!collected) continue;
        kinds.push(...kindsOf(meanwhile));
        if (kinds.includes(kind)) return kinds;
        meanwhile.start();
      }
      kinds.push(...kindsOf(meanwhile));
      return kinds;
    },
  };
}

function kindsOf(profiler: GCProfiler): string[] {
  return profiler.stop().statistics.map((entry) => entry.gcType);
}

/** Bytes in use in V8's young generation; it drops when the generation is collected. */
function youngGenerationUsed(): number {
  return (
    getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_used_size ?? 0
  );
}

/** A timer that does not keep the process alive. */
function unrefDelay(ms: number, callback: () => void): () => void {
  const timer = setTimeout(callback, ms);
  timer.unref();
  return () => clearTimeout(timer);
}
