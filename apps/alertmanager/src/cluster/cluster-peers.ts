import { Gauge, type Registry } from 'prom-client';
import type { RedisStreamLink } from './redis-stream-link';

/** How often a replica says it is there, ms; it counts as gone after three missed beats. */
const BEAT_MS = 5000;

/** A replica as the others see it. */
export interface PeerView {
  name: string;
  address: string;
}

/**
 * The replicas of the cluster, seen through Redis: every five seconds each records its address
 * and the time in `<prefix>:peers` and `<prefix>:peers:seen`, and reads the others that beat in
 * the last fifteen seconds.
 * `/api/v2/status` shows them as upstream shows its gossip peers, and `alertmanager_cluster_members`
 * counts them.
 */
export class ClusterPeers {
  private seen: PeerView[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly link: RedisStreamLink,
    private readonly prefix: string,
    private readonly address: () => string,
    registry: Registry,
  ) {
    const peers = () => this.seen.length;
    new Gauge({
      name: 'alertmanager_cluster_members',
      help: 'Number of cluster members, this replica included, as seen through Redis.',
      registers: [registry],
      collect() {
        this.set(peers());
      },
    });
    new Gauge({
      name: 'alertmanager_cluster_enabled',
      help: 'Indicates whether the clustering is enabled or not.',
      registers: [registry],
    }).set(1);
  }

  start(): void {
    const beat = () =>
      void this.beat().finally(() => (this.timer = setTimeout(beat, BEAT_MS).unref()));
    beat();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
  }

  /** The replicas seen at the last beat, this one first, the others by name. */
  peers(): PeerView[] {
    return this.seen;
  }

  private async beat(): Promise<void> {
    const redis = this.link.commands;
    const self: PeerView = { name: this.link.replica, address: this.address() };
    const seenKey = `${this.prefix}:peers:seen`;
    const addressKey = `${this.prefix}:peers`;
    const now = Date.now();
    try {
      // A sorted set of when each replica last beat, a hash of their addresses: no key scan,
      // so it works on a Redis Cluster as on one server.
      await redis.hset(addressKey, self.name, self.address);
      await redis.zadd(seenKey, now, self.name);
      const gone = await redis.zrangebyscore(seenKey, '-inf', now - 12 * BEAT_MS);
      if (gone.length > 0) {
        await redis.zrem(seenKey, ...gone);
        await redis.hdel(addressKey, ...gone);
      }
      const names = await redis.zrangebyscore(seenKey, now - 3 * BEAT_MS, '+inf');
      const addresses = names.length > 0 ? await redis.hmget(addressKey, ...names) : [];
      const others = names
        .map((name, i) => ({ name, address: addresses[i] ?? '' }))
        .filter((p) => p.name !== self.name && p.address !== '')
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      this.seen = [self, ...others];
    } catch {
      // Redis unreachable: this replica alone is known to be there.
      this.seen = [self];
    }
  }
}
