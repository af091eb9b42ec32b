import type { Alert } from './alert.model';
import { fingerprint } from './fingerprint';
import { MemoryAlertStore } from './memory-alert-store';

let now = 1_000_000;
const clock = { now: () => now };

function alert(name: string, fields: Partial<Alert> = {}): Alert {
  const labels = { alertname: name };
  return {
    labels,
    annotations: {},
    startsAt: now,
    endsAt: now + 300_000,
    updatedAt: now,
    generatorURL: '',
    timeout: true,
    fingerprint: fingerprint(labels),
    ...fields,
  };
}

describe('MemoryAlertStore', () => {
  beforeEach(() => (now = 1_000_000));

  it('stores by fingerprint and merges an overlapping update', async () => {
    const store = new MemoryAlertStore(clock);
    await store.put([alert('A', { annotations: { v: '1' } })]);
    now += 1000;
    await store.put([alert('A', { startsAt: now, annotations: { v: '2' } })]);
    const stored = store.get(fingerprint({ alertname: 'A' }));
    expect(store.size).toBe(1);
    expect(stored).toMatchObject({
      startsAt: 1_000_000,
      updatedAt: 1_001_000,
      annotations: { v: '2' },
    });
  });

  it('replaces a resolved alert that fires again', async () => {
    const store = new MemoryAlertStore(clock);
    await store.put([alert('A', { endsAt: now + 10 })]);
    now += 60_000;
    await store.put([alert('A')]);
    expect(store.get(fingerprint({ alertname: 'A' }))?.startsAt).toBe(now);
  });

  it('replays stored alerts to a new subscriber, then streams accepted ones', async () => {
    const store = new MemoryAlertStore(clock);
    await store.put([alert('A'), alert('B')]);
    const seen: string[] = [];
    const stop = store.subscribe((a) => seen.push(a.labels['alertname']));
    expect(seen).toEqual(['A', 'B']);
    await store.put([alert('C')]);
    stop();
    await store.put([alert('D')]);
    expect(seen).toEqual(['A', 'B', 'C']);
  });

  it('gc removes only alerts resolved at now that the callback allows', async () => {
    const store = new MemoryAlertStore(clock);
    await store.put([
      alert('firing'),
      alert('resolved', { endsAt: now - 1 }),
      alert('kept', { endsAt: now - 1 }),
      alert('edge', { endsAt: now }),
    ]);
    const removed = store.gc(now, (a) => a.labels['alertname'] !== 'kept');
    expect(removed.map((a) => a.labels['alertname']).sort()).toEqual(['edge', 'resolved']);
    expect([...store.list()].map((a) => a.labels['alertname']).sort()).toEqual(['firing', 'kept']);
  });
});
