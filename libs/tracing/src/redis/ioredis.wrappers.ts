import { context, ROOT_CONTEXT, type Context } from '@opentelemetry/api';
import type { EventEmitter } from 'node:events';
import type {
  BatchTrace,
  CommandTrace,
  RedisClientInfo,
  RedisCommandTracer,
} from './redis-command.tracer';
import {
  deriveRedisClient,
  driverNameOf,
  namesVersion,
  redisClientName,
  setDerivedRole,
} from './redis-client.names';
import type { MethodPatcher } from './method-patcher';

/** The parts of an ioredis `Command` the interception touches. */
interface IoredisCommand {
  name: string;
  args: unknown[];
  resolve: (value: unknown) => unknown;
  reject: (error: unknown) => unknown;
  /** Decodes a raw reply as the command's promise will resolve it. */
  transformReply?: (raw: unknown) => unknown;
  [PARENT]?: Context;
  /** The MULTI or EXEC framing a transaction: the batch span stands for them. */
  [FRAME]?: true;
}

/** The parts of an ioredis `Redis` or `Cluster` the interception reads. */
interface IoredisClient {
  isCluster?: boolean;
  status?: string;
  /** The connection attempt under way: its span, or null when it has none. */
  [CONNECTING]?: BatchTrace | null;
  options: { host?: string; port?: number; path?: string; db?: number; connectionName?: string };
  condition?: { select?: number } | null;
}

/** The parts of an ioredis `Pipeline`. */
interface IoredisPipeline {
  redis: IoredisClient;
  isCluster?: boolean;
  _queue: IoredisCommand[];
  _transactions: number;
  promise: Promise<[Error | null, unknown][]>;
  [BATCH]?: true;
}

/** The prototypes of one copy of ioredis that get wrapped. */
export interface IoredisDriver {
  redis?: object;
  cluster?: object;
  pipeline?: object;
  /** The tracer its commands report to, once decided (see `otherInstrumentations`). */
  active?: () => RedisCommandTracer | undefined;
}

type SendCommand = (
  this: IoredisClient,
  command: IoredisCommand,
  stream?: unknown,
  node?: unknown,
) => unknown;
type Exec = (this: IoredisPipeline, ...rest: unknown[]) => unknown;
type Duplicate = (this: IoredisClient, ...rest: unknown[]) => object;
type Connect = (this: IoredisClient, ...rest: unknown[]) => Promise<unknown>;

/**
 * Traces of commands sent through a cluster, which re-creates a redirected command's promise (and
 * so its settlers) and sends it on to a node. Standalone commands need no entry: their settlers
 * say they are traced, and adding a property to ioredis' large `Command` objects would cost an
 * allocation per command.
 */
const routed = new WeakMap<IoredisCommand, CommandTrace>();
/**
 * The redirection (or retry) error of a command of a cluster pipeline, kept while the pipeline
 * decides whether to send the command again: ioredis installs no redirection handler of its own on
 * pipelined commands, so that reply reaches the command's settlers first.
 */
const redirected = new WeakMap<IoredisCommand, unknown>();
/** The name of the settler functions this module installs; how a traced command is recognised. */
const TRACED_RESOLVE = 'redisxTracedResolve';
/** The context a pipelined command belongs to, set when it was queued or its batch started. */
const PARENT = Symbol('redisx.tracing.parent');
const BATCH = Symbol('redisx.tracing.batch');
const FRAME = Symbol('redisx.tracing.frame');
const CONNECTING = Symbol('redisx.tracing.connecting');
/** The statuses in which ioredis refuses `connect()` as already connecting or connected. */
const CONNECTED = new Set(['connecting', 'connect', 'ready']);
/** What ioredis sends itself while connecting: its handshake and the INFO of its ready check. */
const HANDSHAKE = new Set(['hello', 'auth', 'select', 'client', 'readonly', 'info']);
const SUBSCRIBING = new Set(['subscribe', 'psubscribe', 'ssubscribe']);

/**
 * Wraps one copy of ioredis. A command's span starts in `sendCommand` the first time the command
 * object is sent, which is when the caller issues it, in the caller's context; ioredis sends the
 * same object again when it flushes its offline queue, and a cluster once more per node it routes
 * to, and those later sends are recognised by the mark on the object, so there is one span per
 * command. The span ends when ioredis settles the command (reply, error reply, connection error).
 */
export function instrumentIoredis(
  driver: IoredisDriver,
  patcher: MethodPatcher,
  active: () => RedisCommandTracer | undefined,
): void {
  // Fixed parameters rather than rest arguments: this runs for every command.
  const wrapSend = (original: SendCommand): SendCommand =>
    function (this: IoredisClient, command, stream, node) {
      if (command.resolve.name !== TRACED_RESOLVE) {
        const tracer = active();
        // Only a cluster sends a command again with new settlers (`routed` holds its trace).
        const earlier =
          tracer === undefined || this.isCluster !== true ? undefined : routed.get(command);
        // A cluster is given the node only by a pipeline, which retries redirected commands itself.
        const pipelined = node !== undefined && this.isCluster === true;
        if (earlier !== undefined) wrapSettlers(command, earlier, pipelined);
        else if (tracer !== undefined && command[FRAME] !== true) {
          startCommand(tracer, this, command, pipelined, handshakeOf(tracer, this, command));
        }
      } else if (this.isCluster !== true) {
        routed.get(command)?.routedTo(this.options.path ?? this.options.host, this.options.port);
      }
      return original.call(this, command, stream, node);
    };
  const wrapDuplicate = (original: Duplicate): Duplicate =>
    function (this: IoredisClient, ...rest) {
      const child = original.apply(this, rest);
      const override = (this.isCluster ? rest[1] : rest[0]) as
        { connectionName?: unknown; monitor?: unknown } | undefined;
      if (override?.connectionName === undefined) {
        deriveRedisClient(child, this, override?.monitor ? 'monitor' : 'duplicate');
      }
      return child;
    };
  for (const prototype of [driver.redis, driver.cluster]) {
    if (prototype === undefined) continue;
    patcher.wrap<SendCommand>(prototype, 'sendCommand', wrapSend);
    patcher.wrap<Duplicate>(prototype, 'duplicate', wrapDuplicate);
  }
  if (driver.redis !== undefined)
    patcher.wrap<Connect>(driver.redis, 'connect', wrapConnect(active));
  if (driver.pipeline !== undefined) instrumentPipeline(driver.pipeline, patcher, active);
}

/**
 * One connection attempt (the first, a lazy one, or a reconnection): a `redis.connect` span from
 * `connect()` until the client is ready or the attempt fails, parent of the commands ioredis sends
 * while connecting. A first connection belongs to the context that opened it (module start-up, or
 * the request whose command opened a lazy client); a reconnection to none, rather than to whatever
 * the first one was opened in.
 */
function wrapConnect(active: () => RedisCommandTracer | undefined) {
  return (original: Connect): Connect =>
    function (this: IoredisClient, ...rest) {
      const tracer = active();
      if (tracer === undefined || CONNECTED.has(this.status ?? '')) {
        return original.apply(this, rest);
      }
      const parent = this.status === 'reconnecting' ? ROOT_CONTEXT : context.active();
      const attempt = tracer.startConnect(describe(this), parent) ?? null;
      this[CONNECTING] = attempt;
      const done = (error?: unknown) => {
        if (this[CONNECTING] === attempt) this[CONNECTING] = undefined;
        attempt?.end(error, describe(this).name);
      };
      const promise = original.apply(this, rest);
      promise.then(() => done(), done);
      return promise;
    };
}

/** The connection attempt a command belongs to when ioredis sends it itself while connecting. */
function handshakeOf(
  tracer: RedisCommandTracer,
  client: IoredisClient,
  command: IoredisCommand,
): BatchTrace | null | undefined {
  if (client.status !== 'connect' || !HANDSHAKE.has(command.name)) return undefined;
  return client[CONNECTING] === undefined ? lateAttempt(tracer, client) : client[CONNECTING];
}

/**
 * The attempt of a client whose `connect()` ran before the wrappers were in place (an ioredis
 * client connects from its constructor, often while the application's modules are still being
 * built): its span starts with the first handshake command and ends when the client is ready or
 * the connection closes.
 */
function lateAttempt(tracer: RedisCommandTracer, client: IoredisClient): BatchTrace | null {
  const attempt = tracer.startConnect(describe(client), context.active()) ?? null;
  client[CONNECTING] = attempt;
  const emitter = client as unknown as EventEmitter;
  const ready = () => done();
  const closed = () => done(new Error('Connection is closed.'));
  const done = (error?: Error) => {
    emitter.removeListener('ready', ready);
    emitter.removeListener('close', closed);
    if (client[CONNECTING] === attempt) client[CONNECTING] = undefined;
    attempt?.end(error, describe(client).name);
  };
  emitter.once('ready', ready);
  emitter.once('close', closed);
  return attempt;
}

function startCommand(
  tracer: RedisCommandTracer,
  client: IoredisClient,
  command: IoredisCommand,
  pipelined: boolean,
  connecting: BatchTrace | null | undefined,
): void {
  if (SUBSCRIBING.has(command.name)) setDerivedRole(client, 'subscriber');
  const parent = command[PARENT] ?? context.active();
  const traced = tracer.start(command.name, command.args, describe(client), parent, connecting);
  if (traced === undefined) return;
  if (client.isCluster === true) routed.set(command, traced);
  wrapSettlers(command, traced, pipelined);
}

/**
 * Ends the trace when ioredis settles the command. A cluster pipeline re-creates the promise of a
 * redirected command, and with it these functions; `routed` finds the trace again. A redirection
 * of a pipelined cluster command leaves the trace open: the pipeline sends the command again (and
 * the trace ends on the final reply) or gives up, and then {@link settleRedirected} ends it.
 */
function wrapSettlers(command: IoredisCommand, traced: CommandTrace, pipelined: boolean): void {
  const resolve = command.resolve;
  const reject = command.reject;
  command.resolve = function redisxTracedResolve(value: unknown) {
    traced.succeed(traced.wantsReply ? decodedReply(command, value) : value);
    return resolve(value);
  };
  command.reject = (error) => {
    if (pipelined && isRedirection(error)) redirected.set(command, error);
    else traced.fail(error);
    return reject(error);
  };
}

/** The reply as the caller receives it (strings, objects), by the command's own conversion. */
function decodedReply(command: IoredisCommand, raw: unknown): unknown {
  try {
    return command.transformReply?.(raw) ?? raw;
  } catch {
    return raw;
  }
}

/** The errors on which ioredis' cluster may send a pipeline again (`Cluster.handleError`). */
function isRedirection(error: unknown): boolean {
  return (
    error instanceof Error &&
    (/^(?:MOVED|ASK|TRYAGAIN|CLUSTERDOWN) /.test(error.message) ||
      error.message === 'Connection is closed.')
  );
}

/**
 * Once a cluster pipeline has settled, ends as failed the commands whose last reply was a
 * redirection it did not follow (commands it sent again and that succeeded are already ended).
 */
function settleRedirected(pipeline: IoredisPipeline): void {
  const settle = () => {
    for (const command of pipeline._queue) {
      if (!redirected.has(command)) continue;
      const error = redirected.get(command);
      redirected.delete(command);
      routed.get(command)?.fail(error);
    }
  };
  pipeline.promise.then(settle, settle);
}

/** One description per client, rebuilt when its name or selected database changes. */
const descriptions = new WeakMap<object, RedisClientInfo & { version: number }>();

function describe(client: IoredisClient): RedisClientInfo {
  const options = client.options;
  const cluster = client.isCluster === true;
  const database = cluster ? undefined : (client.condition?.select ?? options.db ?? 0);
  const version = namesVersion();
  const cached = descriptions.get(client);
  if (cached !== undefined && cached.version === version && cached.database === database) {
    return cached;
  }
  const fresh = {
    version,
    name: redisClientName(client, cluster ? driverNameOf(client) : options.connectionName),
    address: cluster ? undefined : (options.path ?? options.host),
    port: cluster || options.path !== undefined ? undefined : options.port,
    database,
  };
  descriptions.set(client, fresh);
  return fresh;
}

/**
 * A pipeline's commands are queued without being sent and sent together by `exec`, so `exec`
 * starts the `redis.PIPELINE` or `redis.MULTI` span and makes it the parent of every queued
 * command. Automatic pipelines (`enableAutoPipelining`) gather commands from many callers: there
 * each command keeps the context it was queued in, and no batch span is made.
 */
function instrumentPipeline(
  prototype: object,
  patcher: MethodPatcher,
  active: () => RedisCommandTracer | undefined,
): void {
  patcher.wrap<SendCommand>(
    prototype,
    'sendCommand',
    (original) =>
      function (this: IoredisClient, command, ...rest) {
        if (active() !== undefined) command[PARENT] = context.active();
        return original.call(this, command, ...rest);
      },
  );
  patcher.wrap<Exec>(
    prototype,
    'exec',
    (original) =>
      function (this: IoredisPipeline, ...rest) {
        const tracer = active();
        // MULTI pipelines come through twice: first to queue EXEC (_transactions > 0), then to send.
        // A cluster pipeline comes through again for each redirection it follows.
        if (tracer === undefined || this._transactions > 0 || this[BATCH]) {
          return original.apply(this, rest);
        }
        this[BATCH] = true;
        if (this.isCluster === true) settleRedirected(this);
        if (isAutomatic(this)) return original.apply(this, rest);
        const queue = this._queue;
        const transaction = queue.length > 0 && queue[0].name === 'multi';
        const size = transaction ? Math.max(queue.length - 2, 0) : queue.length;
        const batch = tracer.startBatch(
          transaction ? 'MULTI' : 'PIPELINE',
          size,
          describe(this.redis),
          context.active(),
        );
        if (batch !== undefined) {
          for (const command of queue) command[PARENT] = batch.context;
          // As node-redis: a transaction's span holds its commands, not the MULTI and EXEC around them.
          if (transaction) {
            queue[0][FRAME] = true;
            const last = queue[queue.length - 1];
            if (last.name === 'exec') last[FRAME] = true;
          }
          endBatch(this.promise, batch);
        }
        return original.apply(this, rest);
      },
  );
}

function endBatch(promise: IoredisPipeline['promise'], batch: BatchTrace): void {
  promise.then(
    (results) => batch.end(results?.find((entry) => entry?.[0])?.[0] ?? undefined),
    (error: unknown) => batch.end(error),
  );
}

function isAutomatic(pipeline: object): boolean {
  return Object.getOwnPropertySymbols(pipeline).some(
    (symbol) => symbol.description === 'callbacks',
  );
}
