import type { AlertStore } from '../alerts/alert-store';
import type { AlertMuting } from '../alerts/alert-status';
import type { AlertRouting } from './alert-routing';
import type { LoadedConfig } from '../config';
import { Dispatcher, matchRoutes, receiversFor, type DispatcherMetrics } from '../dispatch';
import { describeRoute } from './describe-route';
import { sleeperFor, type Scheduler } from '../time/scheduler';
import { Inhibitor } from '../inhibit';
import type { Logger } from '../logging/logger';
import type { Muter } from '../labels';
import {
  buildPipeline,
  type NotificationClaims,
  type NotificationHistory,
  type NotificationLog,
  type NotifyMetrics,
  type SharedDeliveries,
} from '../notify';
import type { Integration } from '../notify/notifier';
import { buildReceivers, checkReceiverTemplates, closeReceivers } from '../receivers';
import type { ConfigCommit, ConfigSubscriber } from '../reload/config-subscriber';
import { loadTemplates } from '../template';
import type { Clock } from '../time/clock';
import { TimeIntervalSet } from '../timeinterval';

/** The long-lived parts every configuration's graph shares: they survive reloads. */
export interface AlertingDeps {
  store: AlertStore;
  nflog: NotificationLog;
  /** Silences; mutes nothing until silences exist. */
  silencer: Muter;
  notifyMetrics: NotifyMetrics;
  dispatcherMetrics: DispatcherMetrics;
  clock: Clock;
  scheduler: Scheduler;
  logger: Logger;
  /** `--web.external-url` resolved (known once the server listens), for payloads. */
  externalUrl: () => string;
  /** The replicas' notification claims, when clustered through `--cluster.redis-url`. */
  claims?: NotificationClaims;
  /** The replicas' record of every delivery, when clustered. */
  deliveries?: SharedDeliveries;
  /** Where each notification's outcome is kept (`/api/v2/notifications`). */
  history?: NotificationHistory;
}

/** The objects built from one configuration. */
interface Graph {
  dispatcher: Dispatcher;
  inhibitor: Inhibitor;
  receivers: Map<string, Integration[]>;
}

/**
 * Assembles the path from the alert store to the receivers for each configuration: inhibitor,
 * time intervals, receivers, notification pipeline and dispatcher. A reload builds a whole new
 * graph and swaps it in; the store, the notification log and the metrics are kept, so alerts are
 * replayed into the new groups and nothing already notified is sent again.
 */
export class AlertingGraph implements ConfigSubscriber {
  private current: Graph | undefined;

  constructor(private readonly deps: AlertingDeps) {}

  /** The routing of the running configuration, for the API. */
  readonly routing: AlertRouting = {
    receiversFor: (labels) =>
      this.current ? receiversFor(this.current.dispatcher.routes, labels) : [],
    groups: () => this.current?.dispatcher.groups() ?? [],
    tree: () => (this.current ? describeRoute(this.current.dispatcher.routes) : undefined),
    routesFor: (labels) =>
      this.current ? matchRoutes(this.current.dispatcher.routes, labels).map((n) => n.id) : [],
  };

  /** What mutes alerts under the running configuration, for the API and metrics. */
  readonly muting: AlertMuting = {
    silencers: () => [this.deps.silencer],
    inhibitors: () => (this.current ? [this.current.inhibitor] : []),
  };

  async prepare(next: LoadedConfig): Promise<ConfigCommit> {
    const { config } = next;
    const { deps } = this;
    // A template that does not parse or render refuses the configuration (a reload keeps the
    // old one), with the message check-config prints for it.
    const templates = await loadTemplates(config.templates);
    checkReceiverTemplates(templates, config);
    const inhibitor = new Inhibitor(config, deps.store);
    const receivers = buildReceivers(config, {
      externalUrl: deps.externalUrl(),
      logger: deps.logger,
      templates,
    });
    const pipeline = buildPipeline({
      receivers,
      inhibitor,
      silencer: deps.silencer,
      timeIntervals: TimeIntervalSet.fromConfig(config),
      nflog: deps.nflog,
      metrics: deps.notifyMetrics,
      clock: deps.clock,
      sleep: sleeperFor(deps.scheduler),
      logger: deps.logger,
      claims: deps.claims,
      deliveries: deps.deliveries,
      history: deps.history,
    });
    const dispatcher = new Dispatcher({
      config,
      store: deps.store,
      pipeline,
      clock: deps.clock,
      scheduler: deps.scheduler,
      logger: deps.logger,
      metrics: deps.dispatcherMetrics,
    });
    return async () => {
      // As upstream: the old dispatcher stops (its flushes cancelled) before the new one starts.
      await this.stop();
      this.current = { dispatcher, inhibitor, receivers };
      inhibitor.start();
      dispatcher.start();
    };
  }

  /** Whether a group of the running graph still holds the alert (the store's GC keeps it). */
  holds(fingerprint: string): boolean {
    return this.current?.dispatcher.holds(fingerprint) ?? false;
  }

  /** Drops resolved alerts from the inhibitor's source caches. */
  gcInhibitor(now: number): void {
    this.current?.inhibitor.gc(now);
  }

  /** Stops the running graph: timers, flushes in progress, subscriptions, HTTP agents. */
  async stop(): Promise<void> {
    const old = this.current;
    this.current = undefined;
    if (!old) return;
    old.inhibitor.stop();
    await old.dispatcher.stop();
    closeReceivers(old.receivers);
  }
}
