import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { provideRedis, waitFor, type TestRedis } from '@redisx/testing';
import { testAlert } from '../alerts/testing/test-alert';
import { FakeScheduler } from '../time/testing/fake-scheduler';
import { TestReplica, type Receiver } from './testing/test-replica';

const T0 = Date.UTC(2026, 0, 5, 12);
const GROUP = '{}:{alertname="G"}';
const LABELS = { alertname: 'G' };
/** G's alert as Prometheus last posted it before the firing notification. */
const FIRING = testAlert(LABELS, { startsAt: T0 - 60_000, updatedAt: T0 - 60_000 });
/** G's alert resolved a second after the firing notification. */
const RESOLVED = testAlert(LABELS, { startsAt: T0 - 60_000, endsAt: T0 + 1000 });
/** G's alert firing again, posted after its resolution was notified. */
const FIRING_AGAIN = testAlert(LABELS, { startsAt: T0 + 1800, updatedAt: T0 + 1800 });

type Action =
  | 'start'
  | 'flush firing'
  | 'flush firing, killed once answered'
  | 'flush firing, answered 500'
  | 'flush resolved'
  | 'flush firing again'
  | 'kill'
  | 'claims lapse'
  | 'stream trimmed';
/** ms after T0, replica, what it does, what the receiver gets from it meanwhile. */
type Row = [number, string, Action, string[]];

/**
 * Replicas get group G's alert (Prometheus posts to every replica); A delivers G firing and is
 * killed right after, before anything it left in flight reaches Redis. The replicas that get G's
 * resolution must send it once; A started again (its notification log lost, G still firing in
 * its store) must not send G firing again once its claim has lapsed, even with the stream
 * trimmed past the entry (as after `MAXLEN` entries), nor the resolution B sent. Nor must it,
 * started again after B sent the resolution it never got (its store on disk still holding G
 * firing until Prometheus posts G again), send G firing again; G firing again afterwards is sent.
 * Killed the moment the receiver answered, before its record of the delivery reaches Redis, A
 * still leaves the others knowing it may have sent G firing (its attempt), so one of them sends
 * G's resolution; but an attempt whose send failed, A alive, is taken back: B sends G firing, or
 * no resolution of it.
 */
const SCENARIOS: [string, Row[]][] = [
  [
    'the others send the resolution, once',
    [
      [0, 'A', 'start', []],
      [0, 'B', 'start', []],
      [0, 'C', 'start', []],
      [0, 'A', 'flush firing', ['A: firing']],
      [0, 'A', 'kill', []],
      [0, 'B', 'flush firing', []],
      [0, 'C', 'flush firing', []],
      [1000, 'B', 'flush resolved', ['B: resolved']],
      [1000, 'C', 'flush resolved', []],
    ],
  ],
  [
    'started again, it does not repeat what it sent',
    [
      [0, 'A', 'start', []],
      [0, 'B', 'start', []],
      [0, 'A', 'flush firing', ['A: firing']],
      [0, 'A', 'kill', []],
      [0, '', 'claims lapse', []],
      [0, '', 'stream trimmed', []],
      [500, "A'", 'start', []],
      [500, "A'", 'flush firing', []],
      [1000, 'B', 'flush resolved', ['B: resolved']],
      [1500, "A'", 'flush resolved', []],
    ],
  ],
  [
    'started again after the resolution, it does not send G firing again',
    [
      [0, 'A', 'start', []],
      [0, 'B', 'start', []],
      [0, 'A', 'flush firing', ['A: firing']],
      [0, 'A', 'kill', []],
      [0, 'B', 'flush firing', []],
      [1000, 'B', 'flush resolved', ['B: resolved']],
      [1000, '', 'stream trimmed', []],
      [1500, "A'", 'start', []],
      [1500, "A'", 'flush firing', []],
      [2000, "A'", 'flush firing again', ["A': firing"]],
    ],
  ],
  [
    'killed before its record reaches Redis, the others send the resolution, once',
    [
      [0, 'A', 'start', []],
      [0, 'B', 'start', []],
      [0, 'C', 'start', []],
      [0, 'A', 'flush firing, killed once answered', ['A: firing']],
      [0, 'B', 'flush firing', []],
      [0, 'C', 'flush firing', []],
      [1000, 'B', 'flush resolved', ['B: resolved']],
      [1000, 'C', 'flush resolved', []],
    ],
  ],
  [
    'its send failed, the others still send G firing',
    [
      [0, 'A', 'start', []],
      [0, 'B', 'start', []],
      [0, 'A', 'flush firing, answered 500', ['A: firing (500)']],
      [500, 'B', 'flush firing', ['B: firing']],
      [1000, 'B', 'flush resolved', ['B: resolved']],
    ],
  ],
  [
    'its send failed, nobody resolves what was never delivered',
    [
      [0, 'A', 'start', []],
      [0, 'B', 'start', []],
      [0, 'A', 'flush firing, answered 500', ['A: firing (500)']],
      [1000, 'B', 'flush resolved', []],
    ],
  ],
];

describe('a replica killed right after it delivered', () => {
  let redis: TestRedis;
  let observer: Redis;

  beforeAll(async () => {
    redis = await provideRedis();
    observer = new Redis(redis.url);
  });

  afterAll(async () => {
    await observer?.quit();
    await redis?.stop();
  });

  it.each(SCENARIOS)('%s', async (_name, scenario) => {
    const prefix = `test:${randomUUID()}`;
    const clock = new FakeScheduler(T0);
    const received: Receiver = [];
    const env = { redis, prefix, clock, received, lines: [] as string[] };
    const replicas = new Map<string, TestReplica>();
    const transcript: Row[] = [];
    try {
      for (const [at, name, action] of scenario) {
        // The clock stands still between a flush and the kill that follows it, so nothing runs
        // in between: whatever the flush left in flight dies with the replica.
        if (T0 + at > clock.now()) await clock.advance(T0 + at - clock.now());
        const before = received.length;
        const replica = replicas.get(name);
        switch (action) {
          case 'start':
            replicas.set(name, await TestReplica.start(name, env));
            break;
          case 'flush firing':
            await replica?.flush(GROUP, LABELS, [FIRING]);
            break;
          case 'flush firing, killed once answered':
            if (replica) replica.answer = 'ok, then kill';
            await replica?.flush(GROUP, LABELS, [FIRING]);
            replicas.delete(name);
            break;
          case 'flush firing, answered 500':
            if (replica) replica.answer = '500';
            await expect(replica?.flush(GROUP, LABELS, [FIRING])).rejects.toThrow(/500/);
            break;
          case 'flush resolved':
            await replica?.flush(GROUP, LABELS, [RESOLVED]);
            break;
          case 'flush firing again':
            await replica?.flush(GROUP, LABELS, [FIRING_AGAIN]);
            break;
          case 'kill':
            await replica?.kill();
            replicas.delete(name);
            break;
          case 'claims lapse':
            await waitFor(
              'the claims to lapse',
              async () => (await observer.keys(`${prefix}:claim:*`)).length === 0,
              5000,
            );
            break;
          case 'stream trimmed':
            await observer.xtrim(`${prefix}:nflog`, 'MAXLEN', 0);
            break;
        }
        const got = received
          .slice(before)
          .map((d) => `${d.replica}: ${d.status}${d.failed ? ' (500)' : ''}`);
        transcript.push([at, name, action, got]);
      }
      expect(transcript).toEqual(scenario);
    } finally {
      for (const replica of replicas.values()) await replica.close();
      const keys = await observer.keys(`${prefix}:*`);
      if (keys.length > 0) await observer.del(...keys);
    }
  });
});
