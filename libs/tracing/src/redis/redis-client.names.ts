/** Names given with `registerRedisClient`, or by a driver option such as `duplicate({ connectionName })`. */
const explicit = new WeakMap<object, string>();
/** Clients created from another client at runtime, and the role they play for it. */
const derived = new WeakMap<object, { parent: object; role: string }>();
/** Resolved names, valid while `version` is unchanged (any registration or role change bumps it). */
const cache = new WeakMap<object, { version: number; name: string }>();
let version = 0;

/** Name of clients nobody named. */
export const DEFAULT_CLIENT_NAME = 'default';

/** Changes whenever any name or role changes, so callers may cache names per client. */
export function namesVersion(): number {
  return version;
}

/** Gives `client` the name its spans and metrics carry as `redisx.client`. */
export function nameRedisClient(client: object, name: string): void {
  explicit.set(client, name);
  version++;
}

/** Records that `child` was created from `parent` at runtime (`duplicate()`), in `role`. */
export function deriveRedisClient(child: object, parent: object, role: string): void {
  derived.set(child, { parent, role });
  version++;
}

/** Changes the role of a derived client, as when a duplicate starts subscribing. */
export function setDerivedRole(client: object, role: string): void {
  const entry = derived.get(client);
  if (entry === undefined || entry.role === role) return;
  entry.role = role;
  version++;
}

/**
 * The client's name: its registered name; else its parent's name with the role as suffix
 * (`cache:subscriber`); else the driver's own connection name; else `default`.
 */
export function redisClientName(client: object, driverName: string | undefined): string {
  const cached = cache.get(client);
  if (cached !== undefined && cached.version === version) return cached.name;
  const name = resolveName(client, driverName, 0);
  cache.set(client, { version, name });
  return name;
}

function resolveName(client: object, driverName: string | undefined, depth: number): string {
  const own = explicit.get(client);
  if (own !== undefined) return own;
  const origin = derived.get(client);
  if (origin !== undefined && depth < 16) {
    const parentName = resolveName(origin.parent, driverNameOf(origin.parent), depth + 1);
    return `${parentName}:${origin.role}`;
  }
  return driverName || DEFAULT_CLIENT_NAME;
}

/** `connectionName` (ioredis) or `name` (node-redis) from a client's options. */
export function driverNameOf(client: object): string | undefined {
  const options = (client as { options?: { connectionName?: unknown; name?: unknown } }).options;
  const name = options?.connectionName ?? options?.name;
  return typeof name === 'string' && name !== '' ? name : undefined;
}
