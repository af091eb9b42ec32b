import { Counter, Histogram, Registry } from 'prom-client';

/** From 0.1 ms to 10 s: loopback commands take well under a millisecond, slow scripts seconds. */
export const COMMAND_DURATION_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/**
 * RED metrics of Redis commands in a prom-client registry of their own:
 * `<prefix>commands_total{command,client,status}`, `<prefix>command_duration_seconds{command,client}`
 * and `<prefix>errors_total{command,client,error_type}`.
 */
export class RedisCommandMetrics {
  /** The registry holding the three metrics, for the application to serve or merge. */
  readonly registry = new Registry();
  private readonly commands: Counter<'command' | 'client' | 'status'>;
  private readonly duration: Histogram<'command' | 'client'>;
  private readonly errors: Counter<'command' | 'client' | 'error_type'>;

  constructor(readonly prefix: string) {
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
      registers,
    });
    this.errors = new Counter({
      name: `${prefix}errors_total`,
      help: 'Redis commands that failed, by error type (reply prefix such as WRONGTYPE, or error class).',
      labelNames: ['command', 'client', 'error_type'],
      registers,
    });
  }

  /** Records one finished command; `errorType` is set when it failed. */
  record(command: string, client: string, seconds: number, errorType?: string): void {
    const status = errorType === undefined ? 'success' : 'error';
    this.commands.inc({ command, client, status });
    this.duration.observe({ command, client }, seconds);
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
