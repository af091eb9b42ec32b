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
 * The replicas of the cluster, seen through Redis: each writes `<prefix>:peer:<replica>` with its
 * address every five seconds, expiring after fifteen, and reads the others' at the same time.
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
    try {
      await redis.set(`${this.prefix}:peer:${self.name}`, self.address, 'PX', 3 * BEAT_MS);
      const keys: string[] = [];
      let cursor = '0';
      do {
        const [next, found] = await redis.scan(
          cursor,
          'MATCH',
          `${this.prefix}:peer:*`,
          'COUNT',
          100,
        );
        cursor = next;
        keys.push(...found);
      } while (cursor !== '0');
      const addresses = keys.length > 0 ? await redis.mget(...keys) : [];
      const others = keys
        .map((key, i) => ({
          name: key.slice(`${this.prefix}:peer:`.length),
          address: addresses[i] ?? '',
        }))
        .filter((p) => p.name !== self.name && p.address !== '')
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      this.seen = [self, ...others];
    } catch {
      // Redis unreachable: this replica alone is known to be there.
      this.seen = [self];
    }
  }
}
