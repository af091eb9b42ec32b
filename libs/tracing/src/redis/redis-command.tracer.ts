import {
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { performance } from 'node:perf_hooks';
import { errorType, type RedisCommandMetrics } from '../metrics/redis-command.metrics';
import { toException } from '../span.adapter';
import type { ResolvedSpanOptions } from '../tracing-options.interface';
import { serializeArgs, serializeResult } from './redis-arguments.serializer';
import { buildStatement, commandInfo, type CommandInfo } from './redis-statement';

/** The client a command goes through, as the driver adapters describe it. */
export interface RedisClientInfo {
  name: string;
  address: string | undefined;
  port: number | undefined;
  database: number | undefined;
}

/**
 * Turns commands into spans and metrics. Driver adapters call {@link start} when the caller issues
 * a command, passing the context active at that moment, and finish the returned trace when the
 * reply or error arrives; everything about what a span holds lives here.
 */
export class RedisCommandTracer {
  constructor(
    private readonly tracer: Tracer,
    private readonly options: ResolvedSpanOptions,
    private readonly traceSpans: boolean,
    private readonly metrics: RedisCommandMetrics | null,
  ) {}

  /** Starts one command; undefined when it needs neither a span nor a metric (excluded ones). */
  start(
    command: string,
    args: readonly unknown[],
    client: RedisClientInfo,
    parent: Context,
  ): CommandTrace | undefined {
    const info = commandInfo(command);
    if (this.options.excludeCommands.has(info.name)) return undefined;
    let span: Span | undefined;
    if (this.traceSpans) {
      span = this.tracer.startSpan(info.spanName, { kind: SpanKind.CLIENT }, parent);
      if (span.isRecording()) span.setAttributes(this.attributes(info, args, client));
    }
    if (span === undefined && this.metrics === null) return undefined;
    return new CommandTrace(
      info,
      client.name,
      span,
      this.options,
      this.metrics,
      ignoredByDriver(info, args),
    );
  }

  /** Starts the span of a pipeline or transaction; its context is the parent of its commands. */
  startBatch(
    mode: 'PIPELINE' | 'MULTI',
    size: number,
    client: RedisClientInfo,
    parent: Context,
  ): BatchTrace | undefined {
    if (!this.traceSpans || this.options.excludeCommands.has(mode)) return undefined;
    const span = this.tracer.startSpan(`redis.${mode}`, { kind: SpanKind.CLIENT }, parent);
    if (span.isRecording()) {
      span.setAttributes({
        ...this.endpointAttributes(client),
        'db.operation': mode,
        'db.statement': mode,
        'db.operation.batch.size': size,
      });
    }
    return new BatchTrace(span, trace.setSpan(parent, span));
  }

  private attributes(
    info: CommandInfo,
    args: readonly unknown[],
    client: RedisClientInfo,
  ): Attributes {
    const { statement, key } = buildStatement(info, args);
    // One literal with every key, so each command allocates one object of one shape.
    const attributes: Attributes = {
      'db.system': 'redis',
      'db.operation': info.name,
      'db.statement': statement,
      'redisx.client': client.name,
      'server.address': client.address,
      'server.port': client.port,
      'db.redis.database_index': client.database,
      'db.redis.key': key,
    };
    if (this.options.includeArgs) {
      attributes['db.statement.args'] = serializeArgs(info, args, this.options.maxArgLength);
    }
    return attributes;
  }

  /** Undefined values are skipped by the SDK, so absent facts leave no attribute. */
  private endpointAttributes(client: RedisClientInfo): Attributes {
    return {
      'db.system': 'redis',
      'redisx.client': client.name,
      'server.address': client.address,
      'server.port': client.port,
      'db.redis.database_index': client.database,
    };
  }
}

/** One command in flight. Ends once, whichever of {@link succeed} and {@link fail} comes first. */
export class CommandTrace {
  private readonly started = performance.now();
  private done = false;

  constructor(
    private readonly info: CommandInfo,
    private readonly client: string,
    private readonly span: Span | undefined,
    private readonly options: ResolvedSpanOptions,
    private readonly metrics: RedisCommandMetrics | null,
    /** The driver sends this command itself and ignores an error reply to it. */
    private readonly errorIgnored = false,
  ) {}

  /** Sets the server of a command the driver routed after it started (cluster nodes). */
  routedTo(address: string | undefined, port: number | undefined): void {
    if (this.done || this.span === undefined || address === undefined) return;
    this.span.setAttribute('server.address', address);
    if (port !== undefined) this.span.setAttribute('server.port', port);
  }

  succeed(result: unknown): void {
    if (this.done) return;
    this.done = true;
    const ms = performance.now() - this.started;
    const span = this.span;
    if (span !== undefined) {
      span.setAttribute('redisx.duration_ms', ms);
      if (this.options.includeResult) {
        span.setAttribute(
          'db.statement.result',
          serializeResult(result, this.options.maxArgLength),
        );
      }
      span.end();
    }
    this.metrics?.record(this.info.name, this.client, ms / 1000);
  }

  fail(error: unknown): void {
    if (this.done) return;
    if (this.errorIgnored) {
      // Not a failure of the application: an event says what the server answered.
      this.span?.addEvent('redis.reply_ignored', { 'exception.message': messageOf(error) });
      this.succeed(undefined);
      return;
    }
    this.done = true;
    const ms = performance.now() - this.started;
    const type = errorType(error);
    const span = this.span;
    if (span !== undefined) {
      span.setAttribute('redisx.duration_ms', ms);
      span.setAttribute('error.type', type);
      span.recordException(toException(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: messageOf(error) });
      span.end();
    }
    this.metrics?.record(this.info.name, this.client, ms / 1000, type);
  }
}

/** A pipeline or transaction in flight. */
export class BatchTrace {
  private readonly started = performance.now();

  constructor(
    private readonly span: Span,
    /** The context whose commands become children of this batch. */
    readonly context: Context,
  ) {}

  /** Ends the batch; `error` is the first failure among its commands, if any. */
  end(error?: unknown): void {
    this.span.setAttribute('redisx.duration_ms', performance.now() - this.started);
    if (error !== undefined) {
      this.span.recordException(toException(error));
      this.span.setStatus({ code: SpanStatusCode.ERROR, message: messageOf(error) });
    }
    this.span.end();
  }
}

/**
 * Whether the command is one the drivers send on connecting and whose error reply they ignore:
 * `CLIENT SETINFO` (servers before Redis 7.2 refuse it). Such a reply is not counted as an error,
 * so it cannot raise an error-rate alert.
 */
function ignoredByDriver(info: CommandInfo, args: readonly unknown[]): boolean {
  return info.name === 'CLIENT' && String(args[0] ?? '').toUpperCase() === 'SETINFO';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
