import type { SpanContext } from '@opentelemetry/api';
import { Counter, Histogram, Registry, type OpenMetricsContentType } from 'prom-client';
import type { ResolvedMetricsOptions } from '../tracing-options.interface';
import { CommandExemplarPolicy, type CommandExemplarLabels } from './command-exemplar.policy';
import { openMetricsRegistry } from './open-metrics.registry';

/** From 0.1 ms to 10 s: loopback commands take well under a millisecond, slow scripts seconds. */
export const COMMAND_DURATION_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/**
 * The duration histogram's labels are `command` and `client`; prom-client's types take the names
 * of exemplar labels from the metric's label names, so the exemplar's are named here too.
 */
type DurationLabel = 'command' | 'client' | keyof CommandExemplarLabels;

/**
 * RED metrics of Redis commands in a prom-client registry of their own:
 * `<prefix>commands_total{command,client,status}`, `<prefix>command_duration_seconds{command,client}`
 * and `<prefix>errors_total{command,client,error_type}`. With an exemplar policy, slow and failed
 * commands leave their trace and span ids as exemplars on the duration's buckets (OpenMetrics
 * format only: the Prometheus text format has no place for them).
 */
export class RedisCommandMetrics {
  /** The registry holding the three metrics, for the application to serve or merge. */
  readonly registry = new Registry();
  /** The same metrics in the OpenMetrics format, with exemplars. */
  readonly openMetrics: Registry<OpenMetricsContentType>;
  private readonly commands: Counter<'command' | 'client' | 'status'>;
  private readonly duration: Histogram<DurationLabel>;
  private readonly errors: Counter<'command' | 'client' | 'error_type'>;

  constructor(
    readonly prefix: string,
    /** Which commands leave an exemplar; null: none. */
    readonly exemplars: CommandExemplarPolicy | null = null,
  ) {
    const registers = [this.registry];
    this.commands = new Counter({
      name: `${prefix}commands_total`,
      help: 'Redis commands completed, by command, client and status (success or error).',
      labelNames: ['command', 'client', 'status'],
      registers,
    });
    this.duration = new Histogram({
      name: `${prefix}command_duration_seconds`,
      help: 'Time from issuing a Redis command to its reply, in seconds.',
      labelNames: ['command', 'client'],
      buckets: COMMAND_DURATION_BUCKETS,
      // prom-client refuses a histogram with exemplars in a Prometheus registry, whose text
      // format only leaves them out: it is registered there by hand.
      registers: [],
      enableExemplars: exemplars !== null,
    });
    this.registry.registerMetric(this.duration);
    this.errors = new Counter({
      name: `${prefix}errors_total`,
      help: 'Redis commands that failed, by error type (reply prefix such as WRONGTYPE, or error class).',
      labelNames: ['command', 'client', 'error_type'],
      registers,
    });
    this.openMetrics = openMetricsRegistry([this.commands, this.duration, this.errors]);
  }

  /**
   * Whether a command of `seconds` may leave an exemplar, so that its caller looks up the span
   * context to pass to {@link record} (only then).
   */
  wantsExemplar(seconds: number, failed: boolean): boolean {
    return this.exemplars !== null && this.exemplars.wanted(seconds, failed);
  }

  /**
   * Records one finished command; `errorType` is set when it failed. `spanContext` is the span
   * the command ran in, given when {@link wantsExemplar} said so.
   */
  record(
    command: string,
    client: string,
    seconds: number,
    errorType?: string,
    spanContext?: SpanContext,
  ): void {
    const status = errorType === undefined ? 'success' : 'error';
    this.commands.inc({ command, client, status });
    const labels = { command, client };
    if (this.exemplars === null) this.duration.observe(labels, seconds);
    else {
      // With exemplars enabled, prom-client's histogram takes its observations as one object.
      // Without exemplar labels it keeps the bucket's exemplar (from prom-client 15.1.1 on, the
      // lowest version this package accepts; before, an empty exemplar replaced it).
      const exemplarLabels =
        spanContext === undefined ? undefined : this.exemplars.labels(spanContext);
      this.duration.observe({ labels, value: seconds, exemplarLabels });
    }
    if (errorType !== undefined) this.errors.inc({ command, client, error_type: errorType });
  }

  /** The metrics in Prometheus text format. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  /** The content type of {@link text}. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** The metrics in the OpenMetrics text format, with the exemplars. */
  openMetricsText(): Promise<string> {
    return this.openMetrics.metrics();
  }

  /** The content type of {@link openMetricsText}. */
  get openMetricsContentType(): string {
    return this.openMetrics.contentType;
  }
}

/** The metrics the resolved options ask for: no exemplar policy with the `always_off` filter. */
export function redisCommandMetrics(options: ResolvedMetricsOptions): RedisCommandMetrics {
  const { filter, slowerThanMillis } = options.exemplars;
  const policy =
    filter === 'always_off' ? null : new CommandExemplarPolicy(filter, slowerThanMillis / 1000);
  return new RedisCommandMetrics(options.prefix, policy);
}

/**
 * The error type label: the reply's error code (`ERR`, `WRONGTYPE`, `NOSCRIPT`) for errors from
 * Redis, otherwise the error's class name (`MaxRetriesPerRequestError`, `ClientClosedError`).
 */
export function errorType(error: unknown): string {
  if (!(error instanceof Error)) return 'Error';
  if (isReplyError(error)) {
    const code = /^[A-Z]+/.exec(error.message)?.[0];
    if (code) return code;
  }
  return error.name;
}

/** ioredis's `ReplyError` names itself; node-redis's `ErrorReply` subclasses keep the name "Error". */
function isReplyError(error: Error): boolean {
  if (error.name === 'ReplyError') return true;
  for (
    let proto = Object.getPrototypeOf(error);
    proto && proto !== Error.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    const name = (proto as { constructor?: { name?: string } }).constructor?.name;
    if (name === 'ErrorReply' || name === 'ReplyError') return true;
  }
  return false;
}
