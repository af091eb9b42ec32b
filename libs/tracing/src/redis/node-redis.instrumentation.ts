import { dirname, join } from 'node:path';
import {
  reportOtherInstrumentation,
  unwrapOthers,
  wrappedByOthers,
} from '../other-instrumentations';
import { loadDriverCopies, owner } from './driver-copies';
import type { RedisCommandTracer } from './redis-command.tracer';
import { instrumentNodeRedis, instrumentNodeRedisInstance } from './node-redis.wrappers';
import type { DriverWrapping, RedisDriverInstrumentation } from './redis-driver.instrumentation';

/** Where node-redis 5 keeps its client class. */
const CLIENT_MODULE = '@redis/client/dist/lib/client';
/** What `@opentelemetry/instrumentation-redis` wraps on the client and on its MULTI. */
const CLIENT_METHODS = ['sendCommand', 'connect', 'multi', 'MULTI'];
const MULTI_METHODS = ['exec', 'execAsPipeline', 'addCommand'];

const load: NodeJS.Require = require;

/** The MULTI command class's prototype of the node-redis copy whose client has `prototype`. */
function multiCommandPrototypeOf(prototype: object): object | undefined {
  for (const loaded of Object.values(require.cache)) {
    const exported = loaded?.exports as { default?: { prototype?: object } } | undefined;
    if (exported?.default?.prototype !== prototype || loaded === undefined) continue;
    try {
      const multi = load(join(dirname(loaded.filename), 'multi-command.js')) as {
        default?: { prototype?: object };
      };
      return multi.default?.prototype;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** node-redis 5's `RedisClient`, in every copy the process loads. */
export class NodeRedisInstrumentation implements RedisDriverInstrumentation {
  private readonly prototypes: object[] = [];
  /** Where each copy's commands report, decided when it is first wrapped. */
  private readonly decided = new Map<object, () => RedisCommandTracer | undefined>();
  /** Clients registered while nothing is wrapped, whose own Pub/Sub aliases are rebound later. */
  private readonly waiting = new Set<WeakRef<object>>();

  constructor(private readonly wrapping: DriverWrapping) {}

  discover(): void {
    // Decided again for each installation: an instrumentation may have come or gone meanwhile.
    this.decided.clear();
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
    let active = this.decided.get(prototype);
    if (active === undefined) {
      active = this.decide(prototype);
      this.decided.set(prototype, active);
    }
    instrumentNodeRedis(prototype, this.wrapping.patcher, active);
  }

  /**
   * Where a copy's commands report when `@opentelemetry/instrumentation-redis` wraps it too: to a
   * tracer without spans (`defer`, the metrics still count), or, its wrappers removed from the
   * client and its MULTI, to the usual one (`replace`).
   */
  private decide(prototype: object): () => RedisCommandTracer | undefined {
    const theirs = wrappedByOthers(prototype, CLIENT_METHODS);
    if (theirs.length === 0) return this.wrapping.active;
    const mode = this.wrapping.others();
    reportOtherInstrumentation('@opentelemetry/instrumentation-redis', 'node-redis', mode);
    if (mode === 'replace') {
      unwrapOthers(prototype, theirs);
      const multi = multiCommandPrototypeOf(prototype);
      if (multi !== undefined) unwrapOthers(multi, wrappedByOthers(multi, MULTI_METHODS));
      return this.wrapping.active;
    }
    return () => this.wrapping.active()?.metricsOnly();
  }
}
