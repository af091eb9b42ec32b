import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProcess, runProcess, type RunningProcess } from './child-process';
import { getFreePort } from './free-port';
import { redisAnswers } from './redis-server';
import { waitFor } from './wait-for';

/** A node of a {@link TestRedisCluster}. */
export interface RedisClusterNode {
  host: string;
  port: number;
}

/** A Redis Cluster started for tests, and how to let go of it. */
export interface TestRedisCluster {
  /** The masters, in start order; together they serve all 16384 slots. */
  nodes: RedisClusterNode[];
  /** Stops every `redis-server` of the cluster and removes their directories. */
  stop(): Promise<void>;
}

interface StartedNode extends RedisClusterNode {
  dir: string;
  process: RunningProcess;
}

const HOST = '127.0.0.1';
const SLOTS = 16384;

/**
 * Starts a Redis Cluster of `masters` masters (default 3) without replicas: one `redis-server` per
 * master on free loopback ports (`--cluster-enabled yes`, no persistence, each in its own temporary
 * directory, its cluster bus on another free port, which needs Redis 7 or later), then assigns the
 * 16384 slots in equal ranges with `redis-cli --cluster create`, or, when `redis-cli` is not
 * installed, with `CLUSTER ADDSLOTSRANGE` and `CLUSTER MEET` sent over a raw socket. Resolves once
 * `CLUSTER INFO` says `cluster_state:ok` and every slot is served on every node.
 *
 * Fails with a message saying what to install when `redis-server` cannot be started, so a test never
 * passes without the cluster it needs. Call `stop()` when done (also after a failed test).
 */
export async function startRedisCluster(
  options: { masters?: number } = {},
): Promise<TestRedisCluster> {
  const masters = options.masters ?? 3;
  if (!Number.isInteger(masters) || masters < 1 || masters > SLOTS) {
    throw new RangeError(`startRedisCluster: masters must be an integer from 1 to ${SLOTS}`);
  }
  const started: StartedNode[] = [];
  const stop = async () => {
    await Promise.all(started.map((node) => node.process.stop('SIGTERM', 5_000)));
    await Promise.all(started.map((node) => rm(node.dir, { recursive: true, force: true })));
  };
  try {
    const taken = new Set<number>();
    for (let i = 0; i < masters; i++) started.push(await startNode(taken));
    await assignSlots(started);
    await waitFor(
      `cluster_state:ok on ${started.map((node) => node.port).join(', ')}`,
      async () => {
        const infos = await Promise.all(
          started.map((node) => sendCommand(node.host, node.port, ['CLUSTER', 'INFO'])),
        );
        return infos.every(
          (info) =>
            info.includes('cluster_state:ok') &&
            info.includes(`cluster_slots_ok:${SLOTS}`) &&
            info.includes(`cluster_known_nodes:${masters}`),
        );
      },
      15_000,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { nodes: started.map(({ host, port }) => ({ host, port })), stop };
}

/** A port nothing listens on that this cluster does not use yet. */
async function freshPort(taken: Set<number>): Promise<number> {
  for (;;) {
    const port = await getFreePort(HOST);
    if (!taken.has(port)) {
      taken.add(port);
      return port;
    }
  }
}

/** Starts one cluster-enabled `redis-server`; tries other ports when another process took one. */
async function startNode(taken: Set<number>): Promise<StartedNode> {
  let output = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freshPort(taken);
    const busPort = await freshPort(taken);
    const dir = await mkdtemp(join(tmpdir(), 'redisx-cluster-'));
    // prettier-ignore
    const args = [
      '--port', String(port), '--cluster-port', String(busPort), '--bind', HOST,
      '--cluster-enabled', 'yes', '--cluster-config-file', join(dir, `nodes-${port}.conf`),
      '--dir', dir, '--save', '', '--appendonly', 'no',
    ];
    const child = startProcess('redis-server', args, { cwd: dir });
    let ended = false;
    void child.exited.then(() => (ended = true));
    await waitFor(
      `redis-server on port ${port}`,
      async () => ended || (await redisAnswers(HOST, port)),
      10_000,
    );
    if (!ended) {
      // A node some test failed to stop must not keep the test runner from exiting.
      child.child.unref();
      for (const pipe of [child.child.stdout, child.child.stderr]) (pipe as Socket | null)?.unref();
      return { host: HOST, port, dir, process: child };
    }
    output = child.output().trim();
    await child.stop('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    if (/ENOENT|not found/i.test(output)) break;
  }
  throw new Error(
    `startRedisCluster: redis-server could not be started (${output || 'it exited without output'}); ` +
      'install redis-server 7 or later (the Redis Cluster tests need it)',
  );
}

/** Gives the masters equal slot ranges and joins them, with redis-cli when it is installed. */
async function assignSlots(nodes: StartedNode[]): Promise<void> {
  const addresses = nodes.map((node) => `${node.host}:${node.port}`);
  let created: { code: number; stdout: string; stderr: string } | undefined;
  try {
    created = await runProcess('redis-cli', [
      '--cluster',
      'create',
      ...addresses,
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (created !== undefined) {
    if (created.code === 0) return;
    throw new Error(
      `startRedisCluster: redis-cli --cluster create ${addresses.join(' ')} failed ` +
        `(exit code ${created.code}): ${(created.stdout + created.stderr).trim()}`,
    );
  }
  for (const [index, node] of nodes.entries()) {
    const first = Math.floor((SLOTS * index) / nodes.length);
    const last = Math.floor((SLOTS * (index + 1)) / nodes.length) - 1;
    await sendCommand(node.host, node.port, ['CLUSTER', 'SET-CONFIG-EPOCH', String(index + 1)]);
    await sendCommand(node.host, node.port, [
      'CLUSTER',
      'ADDSLOTSRANGE',
      String(first),
      String(last),
    ]);
  }
  const [seed, ...others] = nodes;
  for (const node of others) {
    await sendCommand(node.host, node.port, ['CLUSTER', 'MEET', seed.host, String(seed.port)]);
  }
}

/**
 * Sends one command over a new connection and resolves with its reply: a status, an integer or a
 * bulk string, as text. Rejects on an error reply, a closed connection or after `timeoutMs`.
 */
function sendCommand(
  host: string,
  port: number,
  args: string[],
  timeoutMs = 2_000,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    let received = Buffer.alloc(0);
    const finish = (error: Error | undefined, reply = '') => {
      socket.destroy();
      if (error) reject(error);
      else resolve(reply);
    };
    const what = `${args.join(' ')} on ${host}:${port}`;
    socket.setTimeout(timeoutMs, () => finish(new Error(`no reply to ${what}`)));
    socket.once('error', (error) => finish(new Error(`${what}: ${error.message}`)));
    socket.once('close', () => finish(new Error(`connection closed before the reply to ${what}`)));
    socket.once('connect', () => {
      const encoded = args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('');
      socket.write(`*${args.length}\r\n${encoded}`);
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const lineEnd = received.indexOf('\r\n');
      if (lineEnd < 0) return;
      const type = String.fromCharCode(received[0]);
      const line = received.subarray(1, lineEnd).toString();
      if (type === '-') return finish(new Error(`${what}: ${line}`));
      if (type !== '$') return finish(undefined, line);
      const length = Number(line);
      if (length < 0) return finish(undefined, '');
      if (received.length < lineEnd + 2 + length + 2) return;
      finish(undefined, received.subarray(lineEnd + 2, lineEnd + 2 + length).toString());
    });
  });
}
