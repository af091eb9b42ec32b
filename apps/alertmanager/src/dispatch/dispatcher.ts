import { performance } from 'node:perf_hooks';
import type { Alert } from '../alerts/alert.model';
import type { AlertStore } from '../alerts/alert-store';
import type { AlertmanagerConfig } from '../config';
import type { LabelSet } from '../labels';
import type { Logger } from '../logging/logger';
import { CanceledError, DeadlineExceededError, type NotifyContext } from '../notify/notify-context';
import type { Stage } from '../notify/stage';
import type { Clock } from '../time/clock';
import { AggregationGroup } from './aggregation-group';
import type { DispatcherMetrics } from './dispatcher-metrics';
import { groupLabelsFor } from './group-labels';
import { compareGoStrings, formatLabelSet, labelSetBefore } from '../labels/label-set-format';
import { buildRouteTree, matchRoutes, type RouteNode } from './route-tree';
import type { Scheduler } from '../time/scheduler';
import { TurnQueue } from '../time/turn-queue';

/** Upstream's `notify.MinTimeout`: a flush gets at least this long before it is cancelled. */
export const MIN_FLUSH_TIMEOUT = 10_000;

/** What a dispatcher is built from; a config reload builds a new dispatcher. */
export interface DispatcherDeps {
  config: Pick<AlertmanagerConfig, 'route'>;
  store: AlertStore;
  pipeline: Stage;
  clock: Clock;
  scheduler: Scheduler;
  logger: Logger;
  metrics?: DispatcherMetrics;
}

/** One aggregation group as `GET /api/v2/alerts/groups` shows it. */
export interface AlertGroupSnapshot {
  labels: LabelSet;
  receiver: string;
  groupKey: string;
  routeKey: string;
  routeId: string;
  /** Sorted as in a notification; resolved alerts still waiting to be notified included. */
  alerts: Alert[];
}

/**
 * Routes every alert the store accepts to its aggregation groups and runs their flushes
 * through the notification pipeline.
 */
export class Dispatcher {
  /** The routing tree of this dispatcher's config. */
  readonly routes: RouteNode;
  private readonly byRoute = new Map<RouteNode, Map<string, AggregationGroup>>();
  private readonly flushes = new Set<AbortController>();
  private unsubscribe: (() => void) | undefined;
  private stopped = false;
  private readonly logger: Logger;
  /** Groups due at the same time flush a turn of the event loop apart. */
  private readonly turns = new TurnQueue();

  constructor(private readonly deps: DispatcherDeps) {
    this.routes = buildRouteTree(deps.config.route);
    this.logger = deps.logger.with({ component: 'dispatcher' });
  }

  /** Subscribes to the store; the alerts it already holds are replayed into groups at once. */
  start(): void {
    if (this.unsubscribe || this.stopped) return;
    this.unsubscribe = this.deps.store.subscribe((alert) => this.process(alert));
  }

  /** Unsubscribes, stops every timer, cancels running flushes and waits for them to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    for (const controller of this.flushes) controller.abort(new CanceledError());
    const groups = [...this.byRoute.values()].flatMap((g) => [...g.values()]);
    this.byRoute.clear();
    this.deps.metrics?.aggregationGroups.dec(groups.length);
    await Promise.all(groups.map((g) => g.stop()));
  }

  /**
   * Whether some group still holds the alert: the store's GC must keep it, or a reload (which
   * replays the store into a new dispatcher) would forget to send its resolution.
   */
  holds(fingerprint: string): boolean {
    for (const groups of this.byRoute.values()) {
      for (const group of groups.values()) if (group.has(fingerprint)) return true;
    }
    return false;
  }

  /** Every aggregation group, sorted as upstream's API: by labels, then by receiver. */
  groups(): AlertGroupSnapshot[] {
    const all: AlertGroupSnapshot[] = [];
    for (const groups of this.byRoute.values()) {
      for (const group of groups.values()) {
        all.push({
          labels: { ...group.labels },
          receiver: group.route.options.receiver,
          groupKey: group.groupKey,
          routeKey: group.route.key,
          routeId: group.route.id,
          alerts: group.list(),
        });
      }
    }
    return all.sort(
      (a, b) => labelSetBefore(a.labels, b.labels) || compareGoStrings(a.receiver, b.receiver),
    );
  }

  private process(alert: Alert): void {
    if (this.stopped) return;
    const started = performance.now();
    for (const route of matchRoutes(this.routes, alert.labels)) {
      const labels = groupLabelsFor(route.options, alert.labels);
      const id = formatLabelSet(labels);
      let groups = this.byRoute.get(route);
      if (!groups) this.byRoute.set(route, (groups = new Map()));
      let group = groups.get(id);
      if (!group) {
        group = new AggregationGroup(route, labels, {
          clock: this.deps.clock,
          scheduler: this.deps.scheduler,
          notify: (g, alerts, now) => this.notify(g, alerts, now),
          onEmpty: (g) => this.remove(g, id),
          turn: () => this.turns.take(),
        });
        groups.set(id, group);
        this.deps.metrics?.aggregationGroups.inc();
      }
      group.insert(alert);
    }
    this.deps.metrics?.processingDuration.observe((performance.now() - started) / 1000);
  }

  private remove(group: AggregationGroup, id: string): void {
    const groups = this.byRoute.get(group.route);
    if (groups?.get(id) !== group) return;
    groups.delete(id);
    if (groups.size === 0) this.byRoute.delete(group.route);
    this.deps.metrics?.aggregationGroups.dec();
    void group.stop();
  }

  /** Runs one flush through the pipeline under a deadline of `max(group_interval, 10s)`. */
  private async notify(group: AggregationGroup, alerts: Alert[], now: number): Promise<boolean> {
    const options = group.route.options;
    const deadline = now + Math.max(options.groupInterval, MIN_FLUSH_TIMEOUT);
    const controller = new AbortController();
    const timer = this.deps.scheduler.set(deadline, () =>
      controller.abort(new DeadlineExceededError()),
    );
    this.flushes.add(controller);
    const ctx: NotifyContext = {
      now,
      groupKey: group.groupKey,
      receiver: options.receiver,
      groupLabels: group.labels,
      routeId: group.route.id,
      repeatInterval: options.repeatInterval,
      muteTimeIntervals: options.muteTimeIntervals,
      activeTimeIntervals: options.activeTimeIntervals,
      deadline,
      signal: controller.signal,
    };
    try {
      await this.deps.pipeline.exec(ctx, alerts);
      return true;
    } catch (err) {
      this.logger.error('Notify for alerts failed', {
        num_alerts: alerts.length,
        aggrGroup: group.groupKey,
        err: err instanceof Error ? err.message : String(err),
      });
      return false;
    } finally {
      this.deps.scheduler.clear(timer);
      this.flushes.delete(controller);
    }
  }
}
