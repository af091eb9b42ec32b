import {
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type SpanContext,
  type Tracer,
} from '@opentelemetry/api';
import { performance } from 'node:perf_hooks';
import { errorType, type RedisCommandMetrics } from '../metrics/redis-command.metrics';
import { runHook } from '../hook-runner';
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

  private spanless: RedisCommandTracer | null | undefined;

  /**
   * This tracer without spans, for a driver another instrumentation traces: the same metrics;
   * undefined when there are none.
   */
  metricsOnly(): RedisCommandTracer | undefined {
    if (this.spanless === undefined) {
      this.spanless =
        this.metrics === null
          ? null
          : new RedisCommandTracer(this.tracer, this.options, false, this.metrics);
    }
    return this.spanless ?? undefined;
  }

  /**
   * Starts one command; undefined when it needs neither a span nor a metric (excluded ones).
   * `connecting` is the connection attempt a driver's own handshake command belongs to (null:
   * one without a span, whose commands get none either).
   */
  start(
    command: string,
    args: readonly unknown[],
    client: RedisClientInfo,
    parent: Context,
    connecting?: BatchTrace | null,
  ): CommandTrace | undefined {
    const info = commandInfo(command);
    if (this.options.excludeCommands.has(info.name)) return undefined;
    let span: Span | undefined;
    if (connecting === undefined ? this.spansUnder(parent) : connecting !== null) {
      span = this.tracer.startSpan(
        info.spanName,
        { kind: SpanKind.CLIENT },
        connecting?.context ?? parent,
      );
      if (span.isRecording()) {
        span.setAttributes(this.attributes(info, args, client));
        const hook = this.options.requestHook;
        if (hook !== undefined) {
          runHook('spans.requestHook', () =>
            hook(span as Span, { command: info.name, args, client: client.name }),
          );
        }
      }
    }
    if (span === undefined && this.metrics === null) return undefined;
    return new CommandTrace(
      info,
      client.name,
      span,
      this.options,
      this.metrics,
      ignoredByDriver(info, args),
      this.options.responseHook === undefined ? undefined : args,
      parent,
    );
  }

  /** Starts the span of a pipeline or transaction; its context is the parent of its commands. */
  startBatch(
    mode: 'PIPELINE' | 'MULTI',
    size: number,
    client: RedisClientInfo,
    parent: Context,
  ): BatchTrace | undefined {
    if (this.options.excludeCommands.has(mode) || !this.spansUnder(parent)) return undefined;
    const span = this.tracer.startSpan(`redis.${mode}`, { kind: SpanKind.CLIENT }, parent);
    if (span.isRecording()) {
      span.setAttributes(this.endpointAttributes(client));
      this.setOperation(span, mode, mode);
      span.setAttribute('db.operation.batch.size', size);
    }
    return new BatchTrace(span, trace.setSpan(parent, span));
  }

  /**
   * Starts the `redis.connect` span of one connection attempt, the parent of the commands the
   * driver sends itself while connecting; undefined when those get no spans.
   */
  startConnect(client: RedisClientInfo, parent: Context): BatchTrace | undefined {
    if (!this.options.connectionCommands || !this.spansUnder(parent)) return undefined;
    const span = this.tracer.startSpan('redis.connect', { kind: SpanKind.CLIENT }, parent);
    if (span.isRecording()) {
      span.setAttributes(this.endpointAttributes(client));
      this.setOperation(span, 'CONNECT', undefined);
    }
    return new BatchTrace(span, trace.setSpan(parent, span));
  }

  /** Whether spans start under `parent`: always, or only inside a span with `requireParentSpan`. */
  private spansUnder(parent: Context): boolean {
    if (!this.traceSpans) return false;
    return !this.options.requireParentSpan || trace.getSpanContext(parent) !== undefined;
  }

  private attributes(
    info: CommandInfo,
    args: readonly unknown[],
    client: RedisClientInfo,
  ): Attributes {
    const built = buildStatement(info, args);
    const serializer = this.options.statementSerializer;
    const statement =
      serializer === undefined ? built.statement : serialized(serializer, info, args, built);
    const mode = this.options.semconv;
    // One literal with every key, so each command allocates one object of one shape.
    const attributes: Attributes =
      mode === 'old'
        ? {
            'db.system': 'redis',
            'db.operation': info.name,
            'db.statement': statement,
            'redisx.client': client.name,
            'server.address': client.address,
            'server.port': client.port,
            'db.redis.database_index': client.database,
            'db.redis.key': built.key,
          }
        : {
            'db.system.name': 'redis',
            'db.operation.name': info.name,
            'db.query.text': statement,
            'db.namespace': client.database === undefined ? undefined : String(client.database),
            'redisx.client': client.name,
            'server.address': client.address,
            'server.port': client.port,
            'db.redis.key': built.key,
          };
    if (mode === 'dup') {
      attributes['db.system'] = 'redis';
      attributes['db.operation'] = info.name;
      attributes['db.statement'] = statement;
      attributes['db.redis.database_index'] = client.database;
    }
    if (this.options.includeArgs) {
      attributes['db.statement.args'] = serializeArgs(info, args, this.options.maxArgLength);
    }
    return attributes;
  }

  /** The operation (and statement, when there is one) under the names the conventions ask for. */
  private setOperation(span: Span, operation: string, statement: string | undefined): void {
    const mode = this.options.semconv;
    if (mode !== 'stable') {
      span.setAttribute('db.operation', operation);
      if (statement !== undefined) span.setAttribute('db.statement', statement);
    }
    if (mode !== 'old') {
      span.setAttribute('db.operation.name', operation);
      if (statement !== undefined) span.setAttribute('db.query.text', statement);
    }
  }

  /** Undefined values are skipped by the SDK, so absent facts leave no attribute. */
  private endpointAttributes(client: RedisClientInfo): Attributes {
    const mode = this.options.semconv;
    const attributes: Attributes = {
      'redisx.client': client.name,
      'server.address': client.address,
      'server.port': client.port,
    };
    if (mode !== 'stable') {
      attributes['db.system'] = 'redis';
      attributes['db.redis.database_index'] = client.database;
    }
    if (mode !== 'old') {
      attributes['db.system.name'] = 'redis';
      if (client.database !== undefined) attributes['db.namespace'] = String(client.database);
    }
    return attributes;
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
    /** The command's arguments, kept only for a response hook. */
    private readonly args?: readonly unknown[],
    /** The caller's context: whose span an exemplar names when the command has none of its own. */
    private readonly parent?: Context,
  ) {}

  /** Whether {@link succeed} hands the reply to a response hook, which wants it decoded. */
  get wantsReply(): boolean {
    return this.args !== undefined;
  }

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
      // A reply-less call (node-redis `subscribe`) records no result rather than "undefined".
      if (this.options.includeResult && result !== undefined) {
        span.setAttribute(
          'db.statement.result',
          serializeResult(result, this.options.maxArgLength),
        );
      }
      const hook = this.options.responseHook;
      if (hook !== undefined && this.args !== undefined && span.isRecording()) {
        const info = { command: this.info.name, args: this.args, client: this.client, result };
        runHook('spans.responseHook', () => hook(span, info));
      }
      span.end();
    }
    const metrics = this.metrics;
    if (metrics !== null) {
      const seconds = ms / 1000;
      const exemplarOf = metrics.wantsExemplar(seconds, false) ? this.spanContext() : undefined;
      metrics.record(this.info.name, this.client, seconds, undefined, exemplarOf);
    }
  }

  fail(error: unknown): void {
    if (this.done) return;
    if (this.errorIgnored && ignoredReply(this.info, error)) {
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
    const metrics = this.metrics;
    if (metrics !== null) {
      const seconds = ms / 1000;
      const exemplarOf = metrics.wantsExemplar(seconds, true) ? this.spanContext() : undefined;
      metrics.record(this.info.name, this.client, seconds, type, exemplarOf);
    }
  }

  /**
   * The span the command ran in: its own, or (without one: spans off, or left to another
   * instrumentation) the caller's, which is in the same trace.
   */
  private spanContext(): SpanContext | undefined {
    if (this.span !== undefined) return this.span.spanContext();
    return this.parent === undefined ? undefined : trace.getSpanContext(this.parent);
  }
}

/** A pipeline, transaction or connection attempt in flight: a span whose commands are its children. */
export class BatchTrace {
  private readonly started = performance.now();

  constructor(
    private readonly span: Span,
    /** The context whose commands become children of this batch. */
    readonly context: Context,
  ) {}

  /**
   * Ends the batch; `error` is the first failure among its commands, if any. `client` names the
   * client again where the name was given after the span started (a connection opened by the
   * constructor of a `duplicate()`, named by the time it is ready).
   */
  end(error?: unknown, client?: string): void {
    if (client !== undefined) this.span.setAttribute('redisx.client', client);
    this.span.setAttribute('redisx.duration_ms', performance.now() - this.started);
    if (error !== undefined) {
      this.span.recordException(toException(error));
      this.span.setStatus({ code: SpanStatusCode.ERROR, message: messageOf(error) });
    }
    this.span.end();
  }
}

/**
 * Whether the command is one the drivers send on connecting and may ignore an error reply to:
 * `CLIENT SETINFO` (servers before Redis 7.2 refuse it) and `AUTH` or `HELLO` (a password given
 * to a server that has none). {@link ignoredReply} then tells by the reply. Such a reply is not counted as an
 * error, so it cannot raise an error-rate alert.
 */
function ignoredByDriver(info: CommandInfo, args: readonly unknown[]): boolean {
  if (info.name === 'AUTH' || info.name === 'HELLO') return true;
  return info.name === 'CLIENT' && String(args[0] ?? '').toUpperCase() === 'SETINFO';
}

/** The replies the drivers carry on after (ioredis and node-redis warn at most). */
function ignoredReply(info: CommandInfo, error: unknown): boolean {
  if (info.name !== 'AUTH' && info.name !== 'HELLO') return true;
  const message = messageOf(error);
  return (
    message.includes('no password is set') ||
    message.includes('without any password configured for the default user')
  );
}

/** `statementSerializer`'s text, or the default one when it throws or returns no string. */
function serialized(
  serializer: (command: string, args: readonly unknown[]) => string,
  info: CommandInfo,
  args: readonly unknown[],
  built: { statement: string },
): string {
  let text: unknown;
  runHook('spans.statementSerializer', () => (text = serializer(info.name, args)));
  return typeof text === 'string' ? text : built.statement;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
