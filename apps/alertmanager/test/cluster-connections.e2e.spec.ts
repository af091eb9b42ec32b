import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { getFreePort, startRedisCluster, waitFor, type TestRedisCluster } from '@redisx/testing';
import { startServerProcess, type ServerProcess } from './support/server-process';

type SilenceView = { id: string };

/** Whether something accepts connections on the loopback port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** Two replicas on the given Redis flags: a silence made on one shows on the other. */
async function sharesSilences(dir: string, flags: string[]): Promise<void> {
  await writeFile(join(dir, 'am.yml'), 'route:\n  receiver: none\nreceivers:\n  - name: none\n');
  const replicas: ServerProcess[] = [];
  try {
    for (const name of ['a', 'b']) {
      replicas.push(await startServerProcess(join(dir, 'am.yml'), flags, join(dir, name)));
    }
    const [a, b] = replicas;
    const res = await fetch(`${a.url}/api/v2/silences`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        matchers: [{ name: 'alertname', value: 'Down', isRegex: false, isEqual: true }],
        startsAt: new Date().toISOString(),
        endsAt: new Date(Date.now() + 3_600_000).toISOString(),
        createdBy: 'test',
        comment: 'shared',
      }),
    });
    expect(res.status).toBe(200);
    const { silenceID } = (await res.json()) as { silenceID: string };
    await waitFor('the silence on b', async () =>
      ((await (await fetch(`${b.url}/api/v2/silences`)).json()) as SilenceView[]).some(
        (s) => s.id === silenceID,
      ),
    );
  } finally {
    for (const r of replicas) await r.stop();
  }
}

/**
 * The other forms of `--cluster.redis-url` and its credentials: replicas on a Redis Cluster
 * (`redis+cluster://`), on the master a Redis Sentinel names (`redis+sentinel://`), and on a
 * server that wants a password read from a file.
 */
describe('replicas on other Redis setups', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-cluster-conn-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('share silences through a Redis Cluster', async () => {
    const redisCluster: TestRedisCluster = await startRedisCluster();
    try {
      const hosts = redisCluster.nodes.map((n) => `${n.host}:${n.port}`).join(',');
      await sharesSilences(dir, [`--cluster.redis-url=redis+cluster://${hosts}`]);
    } finally {
      await redisCluster.stop();
    }
  }, 60_000);

  it('share silences through the master Redis Sentinel names', async () => {
    const masterPort = await getFreePort();
    const sentinelPort = await getFreePort();
    const master = spawn(
      'redis-server',
      ['--port', String(masterPort), '--bind', '127.0.0.1', '--save', ''],
      { stdio: 'ignore' },
    );
    // Sentinel rewrites its configuration file: it gets one of its own.
    await writeFile(
      join(dir, 'sentinel.conf'),
      `port ${sentinelPort}\nbind 127.0.0.1\nsentinel monitor mymaster 127.0.0.1 ${masterPort} 1\n`,
    );
    const sentinel = spawn('redis-server', [join(dir, 'sentinel.conf'), '--sentinel'], {
      stdio: 'ignore',
    });
    try {
      await waitFor(
        'the master and the sentinel',
        async () => (await listening(masterPort)) && (await listening(sentinelPort)),
      );
      await sharesSilences(dir, [
        `--cluster.redis-url=redis+sentinel://127.0.0.1:${sentinelPort}/mymaster`,
      ]);
    } finally {
      sentinel.kill('SIGTERM');
      master.kill('SIGTERM');
    }
  }, 60_000);

  it('share silences through a server that wants a password, read from a file', async () => {
    const port = await getFreePort();
    const server: ChildProcess = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--requirepass', 's3cret-pw'],
      { stdio: 'ignore' },
    );
    try {
      // It answers PING with NOAUTH, but it answers: listening.
      await waitFor('redis-server', () => listening(port));
      await writeFile(join(dir, 'redis-password'), 's3cret-pw\n');
      await sharesSilences(dir, [
        `--cluster.redis-url=redis://127.0.0.1:${port}`,
        `--cluster.redis-password-file=${join(dir, 'redis-password')}`,
      ]);
    } finally {
      server.kill('SIGTERM');
    }
  }, 60_000);
});
