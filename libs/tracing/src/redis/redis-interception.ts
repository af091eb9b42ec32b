import { IoredisInstrumentation } from './ioredis.instrumentation';
import { MethodPatcher } from './method-patcher';
import { NodeRedisInstrumentation } from './node-redis.instrumentation';
import { nameRedisClient } from './redis-client.names';
import type { DriverWrapping, RedisDriverInstrumentation } from './redis-driver.instrumentation';
import type { OtherInstrumentationsMode } from '../other-instrumentations';
import { RUNNING_SCOPES } from '../tracing-scope';

/**
 * Which drivers are wrapped, for the whole process (a driver's prototype is shared by every
 * application in it). Wrappers are installed while at least one module instance traces commands
 * and removed when the last one stops, so with Redis tracing off the drivers run their own
 * methods. Each command reports to the command tracer of the application it runs for: the scope
 * in its context, else the oldest running instance that traces commands (see `TracingScopes`).
 */
let holders = 0;
let others: OtherInstrumentationsMode = 'defer';
const wrapping: DriverWrapping = {
  patcher: new MethodPatcher(),
  active: () => RUNNING_SCOPES.current((scope) => scope.redis),
  installed: () => holders > 0,
  others: () => others,
};
/** node-redis first: its clients also have the methods ioredis is recognised by. */
const drivers: RedisDriverInstrumentation[] = [
  new NodeRedisInstrumentation(wrapping),
  new IoredisInstrumentation(wrapping),
];

/**
 * One more module instance traces commands: wraps every known driver copy on the first, whose
 * `otherInstrumentations` decides about drivers an OpenTelemetry instrumentation already wraps.
 */
export function retainRedisInterception(mode: OtherInstrumentationsMode = 'defer'): void {
  if (holders++ > 0) return;
  others = mode;
  for (const driver of drivers) driver.discover();
  for (const driver of drivers) driver.install();
}

/** One module instance fewer: the last one removes every wrapper. */
export function releaseRedisInterception(): void {
  if (holders === 0 || --holders > 0) return;
  wrapping.patcher.restoreAll();
}

/**
 * Names a Redis client (ioredis `Redis` or `Cluster`, node-redis client) for the `redisx.client`
 * attribute and metric label, and makes sure its driver is traced even when it was loaded from a
 * place this library does not look (another copy, an alias). Clients it creates at runtime
 * (`duplicate()`, subscribers) are named `<name>:<role>`. Returns the client.
 */
export function registerRedisClient<T extends object>(client: T, name: string): T {
  if (typeof name !== 'string' || name === '') {
    throw new TypeError(
      `registerRedisClient: name must be a non-empty string, got ${String(name)}`,
    );
  }
  nameRedisClient(client, name);
  // node-redis hands out a view of the client (`Object.create`); its commands run on `_self`.
  const self = (client as { _self?: object })._self;
  if (self !== undefined && self !== client) nameRedisClient(self, name);
  if (!drivers.some((driver) => driver.register(client))) {
    throw new TypeError('registerRedisClient: not an ioredis or node-redis client');
  }
  return client;
}
