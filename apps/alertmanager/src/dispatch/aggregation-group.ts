import { isResolvedAt, type Alert } from '../alerts/alert.model';
import type { LabelSet } from '../labels';
import type { Clock } from '../time/clock';
import { sortAlerts } from './alert-order';
import { groupKeyOf } from './group-labels';
import type { RouteNode } from './route-tree';
import type { Scheduler, TimerHandle } from '../time/scheduler';
import { GO_ZERO_TIME } from '../time/go-zero-time';

/** Sends one flush's alerts; resolves true when the whole pipeline succeeded. */
export type FlushNotify = (
  group: AggregationGroup,
  alerts: Alert[],
  now: number,
) => Promise<boolean>;

/** What a group needs from its dispatcher. */
export interface AggregationGroupDeps {
  clock: Clock;
  scheduler: Scheduler;
  notify: FlushNotify;
  /** Called when a flush left the group empty, so the dispatcher can drop it. */
  onEmpty: (group: AggregationGroup) => void;
  /** Resolves when it is this group's turn to flush: groups due together flush a turn apart. */
  turn: () => Promise<void>;
}

/**
 * The alerts of one route that share group labels, and the timer that flushes them: first after
 * `group_wait`, then every `group_interval` whether or not anything changed (the dedup stage
 * decides whether that is worth a notification). Nothing else triggers a flush.
 */
export class AggregationGroup {
  /** `<route key>:<group labels>`, upstream's group key. */
  readonly groupKey: string;
  private readonly alerts = new Map<string, Alert>();
  private timer: TimerHandle | undefined;
  private hasFlushed = false;
  private running: Promise<void> | undefined;
  private tickQueued = false;
  private stopped = false;

  constructor(
    readonly route: RouteNode,
    readonly labels: LabelSet,
    private readonly deps: AggregationGroupDeps,
  ) {
    this.groupKey = groupKeyOf(route.key, labels);
    this.timer = deps.scheduler.set(deps.clock.now() + route.options.groupWait, () => this.tick());
  }

  /**
   * Adds or replaces an alert (by fingerprint). Until the first flush, an alert whose
   * `startsAt + group_wait` has already passed makes the group flush at once: waiting for more
   * alerts to group with is pointless for alerts that are already old (upstream 0.25's rule).
   */
  insert(alert: Alert): void {
    this.alerts.set(alert.fingerprint, alert);
    const now = this.deps.clock.now();
    if (!this.hasFlushed && !this.stopped && alert.startsAt + this.route.options.groupWait < now) {
      this.reschedule(now);
    }
  }

  /** Whether the group holds an alert with this fingerprint (notified or not). */
  has(fingerprint: string): boolean {
    return this.alerts.has(fingerprint);
  }

  /** The group's alerts in notification order, as stored (end times not rewritten). */
  list(): Alert[] {
    return sortAlerts([...this.alerts.values()]);
  }

  /** Cancels the timer and waits for a running flush; the group never flushes again. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) this.deps.scheduler.clear(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private reschedule(at: number): void {
    if (this.timer) this.deps.scheduler.clear(this.timer);
    this.timer = this.deps.scheduler.set(at, () => this.tick());
  }

  /** A timer tick: the next tick is set before flushing, so ticks keep `group_interval` apart. */
  private tick(): void {
    this.timer = undefined;
    if (this.stopped) return;
    // Like upstream's run loop, a tick that comes while a flush still runs waits for it.
    if (this.running) {
      this.tickQueued = true;
      return;
    }
    const now = this.deps.clock.now();
    this.reschedule(now + this.route.options.groupInterval);
    this.hasFlushed = true;
    this.running = this.flush(now).finally(() => {
      this.running = undefined;
      if (this.tickQueued) {
        this.tickQueued = false;
        this.tick();
      }
    });
  }

  /**
   * Sends a snapshot: alerts still firing at `now` get a zero `endsAt` (shown as Go's zero
   * time), the rest are sorted as upstream. Resolved alerts leave the group only after a
   * successful flush, and only if they were not updated meanwhile (they may have fired again).
   */
  private async flush(now: number): Promise<void> {
    if (this.alerts.size === 0) return;
    await this.deps.turn();
    if (this.alerts.size === 0) return;
    const snapshot: Alert[] = [];
    const resolved: Alert[] = [];
    for (const alert of this.alerts.values()) {
      if (isResolvedAt(alert, now)) {
        const copy = { ...alert };
        snapshot.push(copy);
        resolved.push(copy);
      } else {
        snapshot.push({ ...alert, endsAt: GO_ZERO_TIME });
      }
    }
    if (!(await this.deps.notify(this, sortAlerts(snapshot), now))) return;
    for (const sent of resolved) {
      const current = this.alerts.get(sent.fingerprint);
      if (current && current.updatedAt === sent.updatedAt && current.endsAt === sent.endsAt) {
        this.alerts.delete(sent.fingerprint);
      }
    }
    if (this.alerts.size === 0 && !this.stopped) this.deps.onEmpty(this);
  }
}
