import {
  reportOtherInstrumentation,
  unwrapOthers,
  wrappedByOthers,
} from '../other-instrumentations';
import { loadDriverCopies, owner } from './driver-copies';
import type { RedisCommandTracer } from './redis-command.tracer';
import { instrumentIoredis, type IoredisDriver } from './ioredis.wrappers';
import type { DriverWrapping, RedisDriverInstrumentation } from './redis-driver.instrumentation';

/** ioredis's parts, each of which identifies its copy. */
const PARTS = ['redis', 'cluster', 'pipeline'] as const;

/** ioredis (`Redis`, `Cluster` and `Pipeline`), in every copy the process loads. */
export class IoredisInstrumentation implements RedisDriverInstrumentation {
  private readonly copies: IoredisDriver[] = [];

  constructor(private readonly wrapping: DriverWrapping) {}

  discover(): void {
    // Decided again for each installation: an instrumentation may have come or gone meanwhile.
    for (const copy of this.copies) copy.active = undefined;
    for (const loaded of loadDriverCopies('ioredis')) {
      const ioredis = loaded as Record<string, { prototype?: object } | undefined>;
      const redis = ioredis['Redis'] ?? ioredis['default'] ?? (loaded as { prototype?: object });
      this.remember({
        redis: redis.prototype,
        cluster: ioredis['Cluster']?.prototype,
        pipeline: ioredis['Pipeline']?.prototype,
      });
    }
  }

  install(): void {
    for (const copy of this.copies) this.wrap(copy);
  }

  register(client: object): boolean {
    const candidate = client as Record<string, unknown>;
    if (
      typeof candidate['sendCommand'] !== 'function' ||
      typeof candidate['pipeline'] !== 'function'
    ) {
      return false;
    }
    const pipeline = Object.getPrototypeOf(
      (candidate['pipeline'] as () => object).call(client),
    ) as object;
    const own = owner(client, 'sendCommand');
    const parts: IoredisDriver = { pipeline: owner(pipeline, 'exec') };
    if (candidate['isCluster'] === true) parts.cluster = own;
    else parts.redis = own;
    this.add(parts);
    if (parts.cluster !== undefined) this.adoptNodeDriver(client);
    return true;
  }

  /**
   * A cluster sends each command on through a node connection, a `Redis` of its own ioredis copy,
   * whose wrapper tells the command's span which node served it; that `Redis` class is reached
   * only through a node, the first one the cluster has or creates (before it sends anything on it).
   */
  private adoptNodeDriver(client: object): void {
    const cluster = client as {
      nodes?: () => object[];
      once?: (event: string, listener: (node: object) => void) => unknown;
    };
    const adopt = (node: object) => this.add({ redis: owner(node, 'sendCommand') });
    const [first] = cluster.nodes?.() ?? [];
    if (first !== undefined) adopt(first);
    else cluster.once?.('+node', adopt);
  }

  /** Remembers a copy, or pieces of one, and wraps what is new when wrappers are in place. */
  private add(parts: IoredisDriver): void {
    if (this.remember(parts) && this.wrapping.installed()) this.install();
  }

  /**
   * True when `parts` brought something new. A copy can be seen in pieces (a registered standalone
   * client shows only its `Redis`, discovery shows the whole copy): pieces of a known copy are
   * merged into it rather than kept apart.
   */
  private remember(parts: IoredisDriver): boolean {
    const copy = this.copies.find((known) =>
      PARTS.some((part) => parts[part] && known[part] === parts[part]),
    );
    if (copy === undefined) {
      this.copies.push(parts);
      return true;
    }
    let added = false;
    for (const part of PARTS) {
      if (parts[part] && !copy[part]) {
        copy[part] = parts[part];
        added = true;
      }
    }
    return added;
  }

  private wrap(copy: IoredisDriver): void {
    if (copy.active === undefined && copy.redis !== undefined)
      copy.active = this.decide(copy.redis);
    instrumentIoredis(copy, this.wrapping.patcher, copy.active ?? this.wrapping.active);
  }

  /**
   * Where a copy's commands report when `@opentelemetry/instrumentation-ioredis` wraps it too:
   * to a tracer without spans (`defer`, the metrics still count), or, its wrappers removed, to the
   * usual one (`replace`).
   */
  private decide(redis: object): () => RedisCommandTracer | undefined {
    const theirs = wrappedByOthers(redis, ['sendCommand', 'connect']);
    if (theirs.length === 0) return this.wrapping.active;
    const mode = this.wrapping.others();
    reportOtherInstrumentation('@opentelemetry/instrumentation-ioredis', 'ioredis', mode);
    if (mode === 'replace') {
      unwrapOthers(redis, theirs);
      return this.wrapping.active;
    }
    return () => this.wrapping.active()?.metricsOnly();
  }
}
