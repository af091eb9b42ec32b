import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { getFreePort } from './free-port';
import { waitFor } from './wait-for';

/** A Redis server that tests may use, and how to let go of it. */
export interface TestRedis {
  url: string;
  host: string;
  port: number;
  /** Stops the server if this helper started it; a shared server is left running. */
  stop(): Promise<void>;
}

/** Sends PING over a raw socket; true when the server answers PONG. */
export async function redisAnswers(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

/**
 * Provides a Redis server: the one at REDIS_URL (default redis://127.0.0.1:6379) when it answers,
 * otherwise a `redis-server` started on a free port. Fails with a clear message when neither works,
 * so a test never passes without the Redis it needs.
 */
export async function provideRedis(): Promise<TestRedis> {
  const wanted = new URL(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379');
  const host = wanted.hostname || '127.0.0.1';
  const port = Number(wanted.port || 6379);
  if (await redisAnswers(host, port)) {
    return { url: wanted.toString(), host, port, stop: async () => undefined };
  }
  return startRedisServer(`no Redis answered at ${wanted.toString()}`);
}

/**
 * Starts a `redis-server` of the test's own, for a test that slows, stops or breaks the server on
 * purpose and must not disturb the tests sharing REDIS_URL's: on a free port, or on `port` to
 * bring back one the test stopped (it starts empty: nothing is saved).
 */
export async function startPrivateRedis(port?: number): Promise<TestRedis> {
  return startRedisServer('this test needs a Redis server of its own', port);
}

async function startRedisServer(reason: string, wantedPort?: number): Promise<TestRedis> {
  const port = wantedPort ?? (await getFreePort());
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  let child: ChildProcess;
  try {
    child = spawn('redis-server', args, { stdio: 'ignore' });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', reject);
    });
  } catch (error) {
    throw new Error(
      `${reason}, and redis-server could not be started (${(error as Error).message}); ` +
        'set REDIS_URL to a reachable Redis or install redis-server',
    );
  }
  await waitFor(`redis-server on port ${port}`, () => redisAnswers('127.0.0.1', port), 10_000);
  return {
    url: `redis://127.0.0.1:${port}`,
    host: '127.0.0.1',
    port,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
