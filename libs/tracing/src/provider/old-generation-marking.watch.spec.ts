import {
  markingUnderWay,
  OldGenerationMarkingWatch,
  RECORDING_LIMIT_MS,
  v8CollectionEvents,
  type CollectionEvents,
  type CollectionKind,
} from './old-generation-marking.watch';

/** Collection events played from a script, and every call the watch made, in order. */
function scripted(
  sinceStart: string[],
  whileAllocating: Partial<Record<CollectionKind, string[]>>,
): CollectionEvents & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    stop() {
      calls.push('stop');
      return sinceStart;
    },
    allocateUntil(kind) {
      calls.push(`allocate until ${kind}`);
      return whileAllocating[kind] ?? [kind];
    },
  };
}

/** A delay that only remembers what it was asked, to be fired by hand. */
function manualDelay() {
  const pending: { ms: number; callback: () => void; cancelled: boolean }[] = [];
  const delay = (ms: number, callback: () => void) => {
    const entry = { ms, callback, cancelled: false };
    pending.push(entry);
    return () => {
      entry.cancelled = true;
    };
  };
  return { delay, pending };
}

describe('OldGenerationMarkingWatch', () => {
  it.each<[string, string[], string[], string[]]>([
    [
      'no marking since the start',
      ['Scavenge'],
      ['Scavenge'],
      ['stop', 'allocate until Scavenge', 'action'],
    ],
    [
      'a marking begun and ended since the start',
      ['Scavenge', 'IncrementalMarking', 'MarkSweepCompact'],
      ['Scavenge'],
      ['stop', 'allocate until Scavenge', 'action'],
    ],
    [
      'a marking under way since the start',
      ['IncrementalMarking', 'Scavenge'],
      ['Scavenge'],
      ['stop', 'allocate until Scavenge', 'allocate until MarkSweepCompact', 'action'],
    ],
    [
      'a marking begun by the collection of the young generation',
      [],
      ['Scavenge', 'IncrementalMarking'],
      ['stop', 'allocate until Scavenge', 'allocate until MarkSweepCompact', 'action'],
    ],
    [
      'a marking ended during the collection of the young generation',
      ['IncrementalMarking'],
      ['Scavenge', 'MarkSweepCompact'],
      ['stop', 'allocate until Scavenge', 'action'],
    ],
  ])('with %s: %j then %j -> %j', (_, sinceStart, young, expected) => {
    const events = scripted(sinceStart, { Scavenge: young });
    const watch = new OldGenerationMarkingWatch(events, manualDelay().delay);
    watch.runWhenNotMarking(() => events.calls.push('action'));
    expect(events.calls).toEqual(expected);
  });

  it('stops recording after its limit when the application never starts, and still runs later', () => {
    const events = scripted(['IncrementalMarking'], {});
    const { delay, pending } = manualDelay();
    const watch = new OldGenerationMarkingWatch(events, delay);
    expect(pending.map(({ ms }) => ms)).toEqual([RECORDING_LIMIT_MS]);
    pending[0].callback();
    expect(events.calls).toEqual(['stop']);

    // What was recorded is gone with the recording: only the young collection is looked at.
    watch.runWhenNotMarking(() => events.calls.push('action'));
    expect(events.calls).toEqual(['stop', 'allocate until Scavenge', 'action']);
  });

  it('stops recording once on close, and cancels its limit', () => {
    const events = scripted([], {});
    const { delay, pending } = manualDelay();
    const watch = new OldGenerationMarkingWatch(events, delay);
    watch.close();
    watch.close();
    expect(events.calls).toEqual(['stop']);
    expect(pending[0].cancelled).toBe(true);
  });
});

describe('markingUnderWay', () => {
  it.each<[string[], boolean]>([
    [[], false],
    [['Scavenge'], false],
    [['IncrementalMarking'], true],
    [['IncrementalMarking', 'Scavenge', 'Scavenge'], true],
    [['IncrementalMarking', 'MarkSweepCompact'], false],
    [['MarkSweepCompact', 'IncrementalMarking'], true],
    [['IncrementalMarking', 'MarkSweepCompact', 'IncrementalMarking'], true],
  ])('%j -> %s', (kinds, expected) => {
    expect(markingUnderWay(kinds)).toBe(expected);
  });
});

describe('OldGenerationMarkingWatch.start', () => {
  it('watches where V8 has a GC profiler, and gives nothing where it has none', () => {
    const watch = OldGenerationMarkingWatch.start();
    expect(watch).toBeInstanceOf(OldGenerationMarkingWatch);
    watch?.close();
    const missing = () => {
      throw new TypeError('GCProfiler is not a constructor');
    };
    expect(OldGenerationMarkingWatch.start(missing)).toBeNull();
  });
});

describe('v8CollectionEvents', () => {
  it("brings about a collection of V8's young generation and records it", () => {
    const events = v8CollectionEvents();
    expect(events.allocateUntil('Scavenge')).toContain('Scavenge');
    expect(Array.isArray(events.stop())).toBe(true);
  });
});
