import { readFileSync } from 'node:fs';
import type * as IORedis from 'ioredis';
import type { Cluster, Redis, RedisOptions } from 'ioredis';

/** How the replicas reach their Redis: `--cluster.redis-*`. */
export interface ClusterRedisOptions {
  /**
   * `redis://` or `rediss://` (one server), `redis+sentinel://` or `rediss+sentinel://` (the
   * sentinels, then the master's name as the path), `redis+cluster://` or `rediss+cluster://`
   * (some nodes of a Redis Cluster). Several hosts are separated by commas.
   */
  url: string;
  /** `--cluster.redis-username`: the ACL user (overrides one in the URL). */
  username?: string;
  /** `--cluster.redis-password-file`: the password, read from a file (overrides the URL's). */
  passwordFile?: string;
  /** `--cluster.redis-tls-ca-file` and the client certificate and key, for `rediss` schemes. */
  tlsCaFile?: string;
  tlsCertFile?: string;
  tlsKeyFile?: string;
}

/** Either form of connection the replicas use; both answer the commands they send. */
export type ClusterRedis = Redis | Cluster;

interface ParsedUrl {
  kind: 'server' | 'sentinel' | 'cluster';
  tls: boolean;
  hosts: { host: string; port: number }[];
  username?: string;
  password?: string;
  path: string;
}

const SCHEME = /^(rediss?)(?:\+(sentinel|cluster))?:\/\/(?:([^@/]*)@)?([^/?#]+)(\/[^?#]*)?$/;

/** Checks a `--cluster.redis-url`; the message says what is wrong. */
export function parseClusterRedisUrl(url: string): ParsedUrl {
  const m = SCHEME.exec(url);
  if (m === null) {
    throw new Error(
      'expected redis://, rediss://, redis+sentinel://, rediss+sentinel://, redis+cluster:// or rediss+cluster:// followed by host:port',
    );
  }
  const [, scheme, kind, auth, hostList, path = ''] = m;
  const hosts = hostList.split(',').map((h) => {
    const at = h.lastIndexOf(':');
    const host = at > 0 ? h.slice(0, at).replace(/^\[|\]$/g, '') : h;
    const port = at > 0 ? Number(h.slice(at + 1)) : kind === 'sentinel' ? 26379 : 6379;
    if (host === '' || !Number.isInteger(port) || port <= 0 || port > 65535) {
      throw new Error(`invalid host:port ${JSON.stringify(h)}`);
    }
    return { host, port };
  });
  const [user, password] = auth === undefined ? [] : auth.split(':').map(decodeURIComponent);
  const parsed: ParsedUrl = {
    kind: (kind as 'sentinel' | 'cluster' | undefined) ?? 'server',
    tls: scheme === 'rediss',
    hosts,
    username: user || undefined,
    password: password || undefined,
    path: path.replace(/^\//, ''),
  };
  if (parsed.kind === 'sentinel' && parsed.path === '') {
    throw new Error(
      'a sentinel URL names the master after the hosts, as in redis+sentinel://host:26379/mymaster',
    );
  }
  if (parsed.kind === 'server' && hosts.length > 1) {
    throw new Error('several hosts need redis+sentinel:// or redis+cluster://');
  }
  return parsed;
}

/** Opens a connection of the kind the URL names, with the credentials and TLS options. */
export function connectClusterRedis(options: ClusterRedisOptions): ClusterRedis {
  const url = parseClusterRedisUrl(options.url);
  // ioredis is loaded by the first connection, not with every server (most run without a cluster).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Cluster, Redis } = require('ioredis') as typeof IORedis;
  const common: RedisOptions = {
    username: options.username ?? url.username,
    password: options.passwordFile
      ? readFileSync(options.passwordFile, 'utf8').trim()
      : url.password,
    maxRetriesPerRequest: null,
    ...(url.tls
      ? {
          tls: {
            ca: options.tlsCaFile ? readFileSync(options.tlsCaFile) : undefined,
            cert: options.tlsCertFile ? readFileSync(options.tlsCertFile) : undefined,
            key: options.tlsKeyFile ? readFileSync(options.tlsKeyFile) : undefined,
          },
        }
      : {}),
  };
  switch (url.kind) {
    case 'sentinel':
      return new Redis({
        ...common,
        sentinels: url.hosts,
        name: url.path,
        sentinelUsername: common.username,
        sentinelPassword: common.password,
        enableTLSForSentinelMode: url.tls,
      });
    case 'cluster':
      return new Cluster(url.hosts, { redisOptions: common });
    default: {
      const db = url.path === '' ? 0 : Number(url.path);
      return new Redis({ ...common, ...url.hosts[0], db: Number.isInteger(db) ? db : 0 });
    }
  }
}
