import { Registry } from 'prom-client';
import type { Alert } from '../../alerts/alert.model';
import { FakeScheduler } from '../../time/testing/fake-scheduler';
import { sleeperFor } from '../../time/scheduler';
import { StreamLogger } from '../../logging/stream-logger';
import { TimeIntervalSet } from '../../timeinterval';
import { buildPipeline } from '../build-pipeline';
import { NO_MUTER, type Muter } from '../../labels/muter';
import { NotificationHistory } from '../notification-history';
import { NotificationLog } from '../notification-log';
import { NotifyError, type Integration, type Notifier } from '../notifier';
import { DeadlineExceededError, type NotifyContext } from '../notify-context';
import { NotifyMetrics } from '../notify-metrics';

/** A notifier that records each call and answers from a script (then succeeds). */
export class ScriptedNotifier implements Notifier {
  readonly calls: { at: number; ctx: NotifyContext; alerts: readonly Alert[] }[] = [];
  constructor(
    private readonly clock: { now(): number },
    private readonly script: (Error | undefined)[] = [],
  ) {}

  async notify(ctx: NotifyContext, alerts: readonly Alert[]): Promise<void> {
    this.calls.push({ at: this.clock.now(), ctx, alerts });
    const outcome = this.script.shift();
    if (outcome) throw outcome;
  }
}

/** Errors as the webhook notifier raises them. */
export const serverError = () => new NotifyError('unexpected status code 503', true, 'serverError');
export const clientError = () =>
  new NotifyError('unexpected status code 400', false, 'clientError');

/** A pipeline over fakes, with the pieces tests inspect. */
export async function pipelineFixture(
  integrations: (clock: FakeScheduler) => Record<string, Integration[]>,
  options: { inhibitor?: Muter; silencer?: Muter; intervals?: TimeIntervalSet } = {},
) {
  const scheduler = new FakeScheduler(1_700_000_000_000);
  const lines: string[] = [];
  const logger = new StreamLogger('debug', 'logfmt', (l) => lines.push(l));
  const registry = new Registry();
  const metrics = new NotifyMetrics(registry);
  const nflog = await NotificationLog.open({ now: scheduler.now(), logger });
  const history = await NotificationHistory.open({
    maxRecords: 100,
    retention: 3_600_000,
    now: scheduler.now(),
    logger,
  });
  const pipeline = buildPipeline({
    receivers: new Map(Object.entries(integrations(scheduler))),
    inhibitor: options.inhibitor ?? NO_MUTER,
    silencer: options.silencer ?? NO_MUTER,
    timeIntervals: options.intervals ?? new TimeIntervalSet([]),
    nflog,
    metrics,
    clock: scheduler,
    sleep: sleeperFor(scheduler),
    logger,
    random: () => 0.5,
    history,
  });
  /** A flush context at the current fake time, aborting at its deadline like the dispatcher. */
  const context = (fields: Partial<NotifyContext> = {}): NotifyContext => {
    const now = scheduler.now();
    const controller = new AbortController();
    const deadline = now + 10_000;
    scheduler.set(deadline, () => controller.abort(new DeadlineExceededError()));
    return {
      now,
      groupKey: '{}:{alertname="A"}',
      receiver: 'r',
      groupLabels: { alertname: 'A' },
      routeId: '{}',
      repeatInterval: 3_600_000,
      muteTimeIntervals: [],
      activeTimeIntervals: [],
      deadline,
      signal: controller.signal,
      ...fields,
    };
  };
  return { scheduler, pipeline, nflog, history, metrics, registry, lines, context };
}

/** Reads one counter series' value from a registry. */
export async function metricValue(
  registry: Registry,
  name: string,
  labels: Record<string, string>,
): Promise<number | undefined> {
  const metric = registry.getSingleMetric(name);
  const values = (await metric?.get())?.values ?? [];
  return values.find(
    (v) =>
      Object.entries(labels).every(([k, val]) => v.labels[k] === val) &&
      (v as { metricName?: string }).metricName === undefined,
  )?.value;
}
