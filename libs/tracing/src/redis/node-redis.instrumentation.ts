import { loadDriverCopies, owner } from './driver-copies';
import { instrumentNodeRedis, instrumentNodeRedisInstance } from './node-redis.wrappers';
import type { DriverWrapping, RedisDriverInstrumentation } from './redis-driver.instrumentation';

/** Where node-redis 5 keeps its client class. */
const CLIENT_MODULE = '@redis/client/dist/lib/client';

/** node-redis 5's `RedisClient`, in every copy the process loads. */
export class NodeRedisInstrumentation implements RedisDriverInstrumentation {
  private readonly prototypes: object[] = [];
  /** Clients registered while nothing is wrapped, whose own Pub/Sub aliases are rebound later. */
  private readonly waiting = new Set<WeakRef<object>>();

  constructor(private readonly wrapping: DriverWrapping) {}

  discover(): void {
    for (const loaded of loadDriverCopies(CLIENT_MODULE)) {
      const prototype = (loaded as { default?: { prototype?: object } }).default?.prototype;
      if (prototype !== undefined) this.remember(prototype);
    }
  }

  install(): void {
    for (const prototype of this.prototypes) this.wrap(prototype);
    for (const ref of this.waiting) {
      const client = ref.deref();
      if (client !== undefined) instrumentNodeRedisInstance(client, this.wrapping.patcher);
    }
    this.waiting.clear();
  }

  register(client: object): boolean {
    if (typeof (client as Record<string, unknown>)['_executeMulti'] !== 'function') return false;
    const prototype = owner(client, '_executeMulti');
    const installed = this.wrapping.installed();
    if (this.remember(prototype) && installed) this.wrap(prototype);
    if (installed) instrumentNodeRedisInstance(client, this.wrapping.patcher);
    else this.waiting.add(new WeakRef(client));
    return true;
  }

  /** True when the prototype was not known yet. */
  private remember(prototype: object): boolean {
    if (this.prototypes.includes(prototype)) return false;
    this.prototypes.push(prototype);
    return true;
  }

  private wrap(prototype: object): void {
    instrumentNodeRedis(prototype, this.wrapping.patcher, this.wrapping.active);
  }
}
