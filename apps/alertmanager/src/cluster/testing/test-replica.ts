import { Registry } from 'prom-client';
import type { Alert } from '../../alerts/alert.model';
import { NO_MUTER } from '../../labels/muter';
import { StreamLogger } from '../../logging/stream-logger';
import {
  buildPipeline,
  NotificationLog,
  NotifyError,
  NotifyMetrics,
  reasonForStatus,
  type Notifier,
  type NotifyContext,
  type Stage,
} from '../../notify';
import type { FakeScheduler } from '../../time/testing/fake-scheduler';
import { sleeperFor } from '../../time/scheduler';
import { TimeIntervalSet } from '../../timeinterval';
import { RedisClaims } from '../redis-claims';
import { RedisDeliveries } from '../redis-deliveries';
import { RedisStreamLink } from '../redis-stream-link';
import { shareNotificationLog } from '../shared-notification-log';
import { RedisCable } from './redis-cable';

/** One notification as the receiver got it, and from which replica. */
export interface Delivered {
  replica: string;
  groupKey: string;
  status: 'firing' | 'resolved';
  /** The receiver answered 500. */
  failed?: true;
}

/**
 * How the receiver answers a replica's next request: at once, with a 500 (the notifier gives
 * up), or at once with the replica killed the moment the answer is in (before it records the
 * delivery).
 */
export type Answer = 'ok' | '500' | 'ok, then kill';

/** Where every replica's one integration (`hook/webhook[0]`, `send_resolved`) delivers. */
export type Receiver = Delivered[];

/** The receiver and integration every test replica notifies. */
export const RECEIVER = 'hook';

/** What the replicas of a spec share: Redis, the key prefix, the wall clock and the receiver. */
export interface ReplicaEnvironment {
  redis: { host: string; port: number };
  prefix: string;
  clock: FakeScheduler;
  received: Receiver;
  /** The log lines of every replica, `<name>: <line>`. */
  lines: string[];
}

/**
 * A replica as the server wires its notification side in a cluster (the notification log shared
 * through Redis, claims, the record of deliveries, the pipeline over them), reaching Redis
 * through a {@link RedisCable} so a spec can kill it. Its notification log is in memory: a
 * replica started again starts with none, as one whose last write to disk was lost.
 */
export class TestReplica {
  /** How the receiver answers this replica's next request; `ok` again after it. */
  answer: Answer = 'ok';

  private constructor(
    readonly name: string,
    private readonly cable: RedisCable,
    private readonly link: RedisStreamLink,
    private readonly pipeline: Stage,
    private readonly env: ReplicaEnvironment,
  ) {}

  static async start(name: string, env: ReplicaEnvironment): Promise<TestReplica> {
    const cable = await RedisCable.open(env.redis.host, env.redis.port);
    const logger = new StreamLogger('debug', 'logfmt', (line) =>
      env.lines.push(`${name}: ${line}`),
    );
    const link = new RedisStreamLink({ url: cable.url }, env.prefix, logger);
    const nflog = await NotificationLog.open({ now: env.clock.now(), logger });
    shareNotificationLog(nflog, link, logger);
    // Holds the replica once it exists, before any flush.
    const self: { replica?: TestReplica } = {};
    const notifier: Notifier = {
      notify: async (ctx: NotifyContext, alerts: readonly Alert[]) => {
        const firing = alerts.some((a) => !ctx.resolved?.includes(a.fingerprint));
        const answer = self.replica?.answer ?? 'ok';
        if (self.replica) self.replica.answer = 'ok';
        env.received.push({
          replica: name,
          groupKey: ctx.groupKey,
          status: firing ? 'firing' : 'resolved',
          ...(answer === '500' ? { failed: true as const } : {}),
        });
        if (answer === '500') {
          throw new NotifyError('unexpected status code 500', false, reasonForStatus(500));
        }
        // Between the retry stage and set-notifies: the record never reaches Redis.
        if (answer === 'ok, then kill') await self.replica?.kill();
      },
    };
    const pipeline = buildPipeline({
      receivers: new Map([
        [RECEIVER, [{ name: 'webhook', index: 0, sendResolved: true, notifier }]],
      ]),
      inhibitor: NO_MUTER,
      silencer: NO_MUTER,
      timeIntervals: new TimeIntervalSet([]),
      nflog,
      metrics: new NotifyMetrics(new Registry()),
      clock: env.clock,
      sleep: sleeperFor(env.clock),
      logger,
      claims: new RedisClaims(link.commands, env.prefix, link.replica),
      deliveries: new RedisDeliveries(link.commands, env.prefix, link.replica, logger),
    });
    self.replica = new TestReplica(name, cable, link, pipeline, env);
    return self.replica;
  }

  /**
   * One flush of the group at the clock's time, as the dispatcher runs it: its deadline (and so
   * the claim's lifetime) one second later.
   */
  async flush(groupKey: string, groupLabels: Record<string, string>, alerts: Alert[]) {
    const now = this.env.clock.now();
    await this.pipeline.exec(
      {
        now,
        groupKey,
        receiver: RECEIVER,
        groupLabels,
        routeId: '{}',
        repeatInterval: 3_600_000,
        muteTimeIntervals: [],
        activeTimeIntervals: [],
        deadline: now + 1000,
        signal: new AbortController().signal,
      },
      alerts,
    );
  }

  /**
   * Ends the replica as `kill -9` does: its connections are cut at once (a command written but
   * not yet passed on is lost), nothing is flushed or closed gracefully, and its memory is
   * dropped with the object. The link is only closed afterwards, so its reconnects stop.
   */
  kill(): Promise<void> {
    this.cable.cut();
    this.link.commands.disconnect();
    return this.link.close();
  }

  /** Stops the replica after a spec. */
  async close(): Promise<void> {
    await this.link.close();
    this.cable.cut();
  }
}
