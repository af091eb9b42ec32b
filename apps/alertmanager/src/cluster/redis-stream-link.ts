import { randomUUID } from 'node:crypto';
import {
  connectClusterRedis,
  type ClusterRedis,
  type ClusterRedisOptions,
} from './redis-connection';
import type { Logger } from '../logging/logger';

/** One entry of a shared stream: its id and what a replica published. */
export interface StreamEntry {
  id: string;
  /** The replica that published it. */
  from: string;
  data: string;
}

/** The most entries a stream keeps (approximately); older ones are trimmed. */
const MAX_ENTRIES = 100_000;
/** Sets a hash field to ARGV[2] when its stored version (`"v"` prefix) is older than ARGV[3]. */
const KEEP_STATE = `
local held = redis.call('HGET', KEYS[1], ARGV[1])
if held then
  local version = tonumber(string.match(held, '^(%d+)|'))
  if version and version >= tonumber(ARGV[3]) then return 0 end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3] .. '|' .. ARGV[2])
return 1`;

/** How long one read waits for new entries before asking again, ms. */
const BLOCK_MS = 1000;

/**
 * The replicas' channel through Redis: each kind of shared state is a Redis stream under
 * `<prefix>:<name>` that every replica appends its changes to and reads from, so a replica that
 * was down catches up from the entries it has not seen. Reads use a connection of their own,
 * since a blocking read holds its connection.
 */
export class RedisStreamLink {
  /** This replica's name in the entries it publishes. */
  readonly replica = randomUUID();
  private readonly writer: ClusterRedis;
  private readonly readers: ClusterRedis[] = [];
  private closed = false;

  constructor(
    private readonly redis: ClusterRedisOptions,
    private readonly prefix: string,
    private readonly logger: Logger,
  ) {
    this.writer = this.connect('writer');
  }

  /** The connection for plain commands (claims), never used for a blocking read. */
  get commands(): ClusterRedis {
    return this.writer;
  }

  /**
   * Keeps `data` as the state of `field` in the hash `<prefix>:<name>:state` unless the hash
   * holds a later version already: the state a replica reads when the stream no longer reaches
   * back far enough.
   */
  async keepState(name: string, field: string, data: string, version: number): Promise<void> {
    await this.writer.eval(KEEP_STATE, 1, this.key(`${name}:state`), field, data, version);
  }

  /** Every state kept in `<prefix>:<name>:state`. */
  async states(name: string): Promise<string[]> {
    return Object.values(await this.writer.hgetall(this.key(`${name}:state`)));
  }

  /** Drops the states of `fields` (ended and past retention everywhere). */
  async dropStates(name: string, fields: readonly string[]): Promise<void> {
    if (fields.length > 0) await this.writer.hdel(this.key(`${name}:state`), ...fields);
  }

  /** Appends an entry to the stream `name`; resolves with its id. */
  async publish(name: string, data: string): Promise<string> {
    const id = await this.writer.xadd(
      this.key(name),
      'MAXLEN',
      '~',
      MAX_ENTRIES,
      '*',
      'from',
      this.replica,
      'data',
      data,
    );
    return id as string;
  }

  /**
   * Reads the stream `name` from its start, then every new entry as it comes, handing each batch
   * to `apply` in order (a batch is read again only after `apply` finished). Runs until closed;
   * a lost connection is retried by ioredis, a failed read logged and tried again.
   */
  follow(name: string, apply: (entries: StreamEntry[]) => Promise<void>): void {
    const reader = this.connect(`reader ${name}`);
    this.readers.push(reader);
    const key = this.key(name);
    let last = '0';
    const loop = async (): Promise<void> => {
      while (!this.closed) {
        try {
          const answer = (await reader.xread(
            'COUNT',
            500,
            'BLOCK',
            BLOCK_MS,
            'STREAMS',
            key,
            last,
          )) as [string, [string, string[]][]][] | null;
          const entries = (answer?.[0]?.[1] ?? []).map(([id, fields]) => entryOf(id, fields));
          if (entries.length === 0) continue;
          await apply(entries);
          last = entries[entries.length - 1].id;
        } catch (error) {
          if (this.closed) return;
          this.logger.warn('reading the shared stream failed', {
            stream: key,
            err: (error as Error).message,
          });
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
    };
    void loop();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const reader of this.readers) reader.disconnect();
    await this.writer.quit().catch(() => this.writer.disconnect());
  }

  private key(name: string): string {
    return `${this.prefix}:${name}`;
  }

  private connect(role: string): ClusterRedis {
    const client = connectClusterRedis(this.redis);
    client.on('error', (error: Error) =>
      this.logger.debug('cluster Redis connection', { role, err: error.message }),
    );
    return client;
  }
}

function entryOf(id: string, fields: string[]): StreamEntry {
  const entry: StreamEntry = { id, from: '', data: '' };
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === 'from') entry.from = fields[i + 1];
    else if (fields[i] === 'data') entry.data = fields[i + 1];
  }
  return entry;
}
