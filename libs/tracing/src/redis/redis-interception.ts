import { createRequire } from 'node:module';
import { join } from 'node:path';
import { instrumentIoredis, type IoredisDriver } from './ioredis.instrumentation';
import { MethodPatcher } from './method-patcher';
import { instrumentNodeRedis, instrumentNodeRedisInstance } from './node-redis.instrumentation';
import { nameRedisClient } from './redis-client.names';
import { RUNNING_SCOPES } from '../tracing-scope';

type Driver = { kind: 'ioredis'; parts: IoredisDriver } | { kind: 'node-redis'; prototype: object };

/**
 * Which drivers are wrapped, for the whole process (a driver's prototype is shared by every
 * application in it). Wrappers are installed while at least one module instance traces commands
 * and removed when the last one stops, so with Redis tracing off the drivers run their own
 * methods. Each command reports to the command tracer of the application it runs for: the scope
 * in its context, else the oldest running instance that traces commands (see `TracingScopes`).
 */
const patcher = new MethodPatcher();
const known: Driver[] = [];
const lateInstances = new Set<WeakRef<object>>();
let holders = 0;
const current = () => RUNNING_SCOPES.current((scope) => scope.redis);
const installed = () => holders > 0;

/** One more module instance traces commands: wraps every known driver copy on the first. */
export function retainRedisInterception(): void {
  if (holders++ > 0) return;
  for (const driver of discoverDrivers()) remember(driver);
  for (const driver of known) install(driver);
  for (const ref of lateInstances) {
    const client = ref.deref();
    if (client !== undefined) instrumentNodeRedisInstance(client, patcher);
  }
  lateInstances.clear();
}

/** One module instance fewer: the last one removes every wrapper. */
export function releaseRedisInterception(): void {
  if (holders === 0 || --holders > 0) return;
  patcher.restoreAll();
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
  const driver = driverOfClient(client);
  if (driver === undefined) {
    throw new TypeError('registerRedisClient: not an ioredis or node-redis client');
  }
  if (remember(driver) && installed()) install(driver);
  if (driver.kind === 'ioredis' && driver.parts.cluster !== undefined) adoptNodeDriver(client);
  if (driver.kind === 'node-redis') {
    if (installed()) instrumentNodeRedisInstance(client, patcher);
    else lateInstances.add(new WeakRef(client));
  }
  return client;
}

/**
 * A cluster sends each command on through a node connection, a `Redis` of its own ioredis copy,
 * whose wrapper tells the command's span which node served it; that `Redis` class is reached only
 * through a node, the first one the cluster has or creates (before it sends anything on it).
 */
function adoptNodeDriver(client: object): void {
  const cluster = client as {
    nodes?: () => object[];
    once?: (event: string, listener: (node: object) => void) => unknown;
  };
  const adopt = (node: object) => {
    const driver: Driver = { kind: 'ioredis', parts: { redis: owner(node, 'sendCommand') } };
    if (remember(driver) && installed()) install(driver);
  };
  const [first] = cluster.nodes?.() ?? [];
  if (first !== undefined) adopt(first);
  else cluster.once?.('+node', adopt);
}

function install(driver: Driver): void {
  if (driver.kind === 'ioredis') instrumentIoredis(driver.parts, patcher, current);
  else instrumentNodeRedis(driver.prototype, patcher, current);
}

/** ioredis's parts, each of which identifies its copy. */
const IOREDIS_PARTS = ['redis', 'cluster', 'pipeline'] as const;

/**
 * Adds a driver unless its prototypes are known; true when it brought something new. An ioredis
 * copy can be seen in pieces (a registered standalone client shows only its `Redis`, discovery
 * shows the whole copy): pieces of a known copy are merged into it rather than dropped.
 */
function remember(driver: Driver): boolean {
  if (driver.kind === 'node-redis') {
    const seen = known.some((o) => o.kind === 'node-redis' && o.prototype === driver.prototype);
    if (!seen) known.push(driver);
    return !seen;
  }
  const copy = known.find(
    (o) =>
      o.kind === 'ioredis' &&
      IOREDIS_PARTS.some((part) => driver.parts[part] && o.parts[part] === driver.parts[part]),
  );
  if (copy === undefined || copy.kind !== 'ioredis') {
    known.push(driver);
    return true;
  }
  let added = false;
  for (const part of IOREDIS_PARTS) {
    if (driver.parts[part] && !copy.parts[part]) {
      copy.parts[part] = driver.parts[part];
      added = true;
    }
  }
  return added;
}

/** The ioredis and node-redis copies the application resolves, and the one next to this library. */
function discoverDrivers(): Driver[] {
  const found: Driver[] = [];
  const fromApplication = createRequire(join(process.cwd(), 'index.js'));
  const requirers = [require, fromApplication];
  // Load the application's copy only when it is another file than the one next to this library.
  const sameCopy = (name: string) =>
    attempt(() => require.resolve(name)) === attempt(() => fromApplication.resolve(name));
  if (sameCopy('ioredis') && sameCopy('@redis/client/dist/lib/client')) requirers.pop();
  for (const load of requirers) {
    const ioredis = attempt(() => load('ioredis') as Record<string, unknown>);
    if (ioredis) {
      const redis = (ioredis['Redis'] ?? ioredis['default'] ?? ioredis) as { prototype?: object };
      const cluster = ioredis['Cluster'] as { prototype?: object } | undefined;
      const pipeline = ioredis['Pipeline'] as { prototype?: object } | undefined;
      found.push({
        kind: 'ioredis',
        parts: {
          redis: redis.prototype,
          cluster: cluster?.prototype,
          pipeline: pipeline?.prototype,
        },
      });
    }
    const nodeRedis = attempt(
      () => load('@redis/client/dist/lib/client') as { default?: { prototype?: object } },
    );
    if (nodeRedis?.default?.prototype)
      found.push({ kind: 'node-redis', prototype: nodeRedis.default.prototype });
  }
  return found;
}

/** The driver a client instance comes from, found through its prototype chain. */
function driverOfClient(client: object): Driver | undefined {
  const candidate = client as Record<string, unknown>;
  if (typeof candidate['_executeMulti'] === 'function') {
    return { kind: 'node-redis', prototype: owner(client, '_executeMulti') };
  }
  if (
    typeof candidate['sendCommand'] !== 'function' ||
    typeof candidate['pipeline'] !== 'function'
  ) {
    return undefined;
  }
  const pipeline = Object.getPrototypeOf(
    (candidate['pipeline'] as () => object).call(client),
  ) as object;
  const own = owner(client, 'sendCommand');
  const parts: IoredisDriver = { pipeline: owner(pipeline, 'exec') };
  if (candidate['isCluster'] === true) parts.cluster = own;
  else parts.redis = own;
  return { kind: 'ioredis', parts };
}

/** The object on the prototype chain that owns `method`. */
function owner(start: object, method: string): object {
  let current: object | null = start;
  while (current !== null && !Object.hasOwn(current, method))
    current = Object.getPrototypeOf(current) as object | null;
  return current ?? start;
}

function attempt<T>(load: () => T): T | undefined {
  try {
    return load();
  } catch {
    return undefined;
  }
}
