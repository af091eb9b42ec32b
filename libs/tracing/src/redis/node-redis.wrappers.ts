import { context, type Context } from '@opentelemetry/api';
import type { CommandTrace, RedisClientInfo, RedisCommandTracer } from './redis-command.tracer';
import {
  deriveRedisClient,
  driverNameOf,
  redisClientName,
  setDerivedRole,
} from './redis-client.names';
import type { MethodPatcher } from './method-patcher';

/** The parts of a node-redis `RedisClient` the interception reads. */
interface NodeRedisClient {
  _self?: NodeRedisClient;
  options?: {
    name?: string;
    database?: number;
    socket?: { host?: string; port?: number; path?: string };
  };
}

type Args = readonly unknown[];
type SendCommand = (this: NodeRedisClient, args: Args, ...rest: unknown[]) => Promise<unknown>;
type Execute = (
  this: NodeRedisClient,
  commands: { args: Args }[],
  ...rest: unknown[]
) => Promise<unknown>;
type PubSub = (
  this: NodeRedisClient,
  channels: string | string[],
  ...rest: unknown[]
) => Promise<unknown>;
type Duplicate = (this: NodeRedisClient, overrides?: { name?: unknown }) => object;

/** Pub/Sub methods, which node-redis queues without `sendCommand`. */
export const PUBSUB_METHODS = [
  'SUBSCRIBE',
  'UNSUBSCRIBE',
  'PSUBSCRIBE',
  'PUNSUBSCRIBE',
  'SSUBSCRIBE',
  'SUNSUBSCRIBE',
];
/** The lower-case aliases node-redis copies onto every instance when it is constructed. */
const PUBSUB_ALIASES: Record<string, string> = {
  subscribe: 'SUBSCRIBE',
  unsubscribe: 'UNSUBSCRIBE',
  pSubscribe: 'PSUBSCRIBE',
  pUnsubscribe: 'PUNSUBSCRIBE',
  sSubscribe: 'SSUBSCRIBE',
  sUnsubscribe: 'SUNSUBSCRIBE',
};

/**
 * Wraps node-redis 5's `RedisClient`. Every single command goes through `sendCommand` once, when
 * the caller issues it (node-redis queues it and writes later, so queueing while offline does
 * not send it twice); MULTI and pipelines bypass it and are wrapped as a whole, with one child span
 * per command ending with the batch; Pub/Sub methods bypass it too and are wrapped one by one.
 */
export function instrumentNodeRedis(
  prototype: object,
  patcher: MethodPatcher,
  active: () => RedisCommandTracer | undefined,
): void {
  patcher.wrap<SendCommand>(
    prototype,
    'sendCommand',
    (original) =>
      function (this: NodeRedisClient, args, ...rest) {
        const tracer = active();
        const traced = tracer?.start(
          String(args[0]),
          args.slice(1),
          describe(this),
          context.active(),
        );
        const reply = original.call(this, args, ...rest);
        return traced === undefined ? reply : settle(reply, traced);
      },
  );
  for (const [method, mode] of [
    ['_executeMulti', 'MULTI'],
    ['_executePipeline', 'PIPELINE'],
  ] as const) {
    patcher.wrap<Execute>(
      prototype,
      method,
      (original) =>
        function (this: NodeRedisClient, commands, ...rest) {
          const tracer = active();
          if (tracer === undefined) return original.call(this, commands, ...rest);
          return traceBatch(tracer, mode, this, commands, () =>
            original.call(this, commands, ...rest),
          );
        },
    );
  }
  for (const method of PUBSUB_METHODS)
    patcher.wrap<PubSub>(prototype, method, wrapPubSub(method, active));
  patcher.wrap<Duplicate>(
    prototype,
    'duplicate',
    (original) =>
      function (this: NodeRedisClient, overrides) {
        const child = original.call(this, overrides);
        if (overrides?.name === undefined)
          deriveRedisClient(child, this._self ?? this, 'duplicate');
        return child;
      },
  );
}

/**
 * node-redis copies `subscribe = this.SUBSCRIBE` onto each instance as it is constructed, so a
 * client built before the prototype was wrapped keeps the unwrapped aliases; this rebinds them.
 */
export function instrumentNodeRedisInstance(client: object, patcher: MethodPatcher): void {
  const instance = client as Record<string, unknown>;
  for (const [alias, method] of Object.entries(PUBSUB_ALIASES)) {
    if (Object.hasOwn(instance, alias) && instance[alias] !== instance[method]) {
      patcher.wrap(
        instance,
        alias,
        () =>
          function (this: unknown, ...args: unknown[]) {
            return (instance[method] as (...all: unknown[]) => unknown).apply(this, args);
          } as never,
      );
    }
  }
}

function wrapPubSub(method: string, active: () => RedisCommandTracer | undefined) {
  return (original: PubSub): PubSub =>
    function (this: NodeRedisClient, channels, ...rest) {
      const tracer = active();
      if (tracer === undefined) return original.call(this, channels, ...rest);
      if (method.endsWith('SUBSCRIBE') && !method.includes('UNSUB'))
        setDerivedRole(this._self ?? this, 'subscriber');
      const list = channels === undefined ? [] : Array.isArray(channels) ? channels : [channels];
      const traced = tracer.start(method, list, describe(this), context.active());
      const reply = original.call(this, channels, ...rest);
      return traced === undefined ? reply : settle(reply, traced);
    };
}

async function traceBatch(
  tracer: RedisCommandTracer,
  mode: 'MULTI' | 'PIPELINE',
  client: NodeRedisClient,
  commands: { args: Args }[],
  run: () => Promise<unknown>,
): Promise<unknown> {
  const info = describe(client);
  const batch = tracer.startBatch(mode, commands.length, info, context.active());
  const parent: Context = batch?.context ?? context.active();
  const children = commands.map(({ args }) =>
    tracer.start(String(args[0]), args.slice(1), info, parent),
  );
  try {
    const results = (await run()) as unknown[];
    children.forEach((child, index) => {
      const result = Array.isArray(results) ? results[index] : undefined;
      if (result instanceof Error) child?.fail(result);
      else child?.succeed(result);
    });
    batch?.end(results.find((result) => result instanceof Error));
    return results;
  } catch (error) {
    for (const child of children) child?.fail(error);
    batch?.end(error);
    throw error;
  }
}

/** The same outcome as `reply`, after the trace has recorded it; an unhandled rejection stays one. */
function settle(reply: Promise<unknown>, traced: CommandTrace): Promise<unknown> {
  return reply.then(
    (value) => {
      traced.succeed(value);
      return value;
    },
    (error: unknown) => {
      traced.fail(error);
      throw error;
    },
  );
}

function describe(client: NodeRedisClient): RedisClientInfo {
  const self = client._self ?? client;
  const options = self.options;
  const socket = options?.socket;
  return {
    name: redisClientName(self, driverNameOf(self)),
    address: socket?.path ?? socket?.host ?? 'localhost',
    port: socket?.path === undefined ? (socket?.port ?? 6379) : undefined,
    database: options?.database ?? 0,
  };
}
