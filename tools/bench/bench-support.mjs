// Small helpers shared by the benchmarks: timing, statistics, peers found on PATH, servers to
// start and a light HTTP client to drive them.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const requireFromRepo = createRequire(join(repoRoot, 'package.json'));

/** Our server's bin; `REDISX_AM_BIN` points at another build's. */
export const oursBin =
  process.env.REDISX_AM_BIN ??
  join(repoRoot, 'apps', 'alertmanager', 'bin', 'redisx-alertmanager.js');

/**
 * The command and arguments that start our server as `npx redisx-alertmanager` does: the bin run
 * as a program, so that its first line sets V8's young generation and glibc's allocator up
 * (CONTRIBUTING.md, "The server's memory"). With `OURS_NODE_ARGS` (Node flags, such as
 * `--cpu-prof`), `node` runs it with them and without that setup.
 */
export function oursCommand(args) {
  const nodeArgs = (process.env.OURS_NODE_ARGS ?? '').split(' ').filter(Boolean);
  if (nodeArgs.length === 0) return [oursBin, args];
  return [process.execPath, [...nodeArgs, oursBin, ...args]];
}

/** Median of a list of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** p50, p99 and the worst of latency samples (ms), and how many there were. */
export function latencyStats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p99: at(0.99), worst: sorted[sorted.length - 1], n: sorted.length };
}

/** Milliseconds taken by `fn` (sync or async). */
export async function timeMs(fn) {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** The absolute path of `command` on PATH (or in /usr/bin), or undefined. */
export function findPeer(command) {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

/** Prints a peer's absence with the reason, so a skipped comparison is never silent. */
export function skipPeer(name, why) {
  console.log(`SKIPPED side-by-side with ${name}: ${why}`);
}

/** The specification's bundled rules, which the server and Prometheus both load as they are. */
export const bundledRules = join(
  repoRoot,
  'apps',
  'alertmanager',
  'config',
  'rules',
  'redisx.rules.yml',
);

/** Formats a number with a fixed number of decimals. */
export const fmt = (n, digits = 1) => n.toFixed(digits);

/** A process's resident memory, bytes. */
export const rssOf = (pid) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;

/**
 * A process's CPU seconds (user and system, all threads) and minor page faults so far, and its
 * first thread's time on a core and waiting for one while it could run (ms; for a Node server,
 * the event loop's thread).
 */
export function cpuOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const [onCore, waiting] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ');
  return {
    cpuS: (Number(fields[11]) + Number(fields[12])) / 100,
    faults: Number(fields[7]),
    mainMs: Number(onCore) / 1e6,
    waitMs: Number(waiting) / 1e6,
  };
}

/** Runs this benchmark file again as a child process with `args` and parses its last JSON line. */
export function runWorker(file, args) {
  const result = spawnSync(process.execPath, ['--expose-gc', file, ...args], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
    timeout: 300_000,
  });
  if (result.status !== 0) {
    throw new Error(`worker ${args.join(' ')} failed (${result.status}): ${result.stderr}`);
  }
  const lines = result.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]);
}

/**
 * A light HTTP/1.1 client for load generation: `http.request` over one keep-alive `http.Agent`
 * (at most `maxSockets` connections, reused), so the client costs far less per request than
 * `fetch` and every server under test is driven by the same client. `request` resolves with the
 * status, the headers and the whole body as a Buffer; `close` drops the pooled connections.
 */
export function httpClient(maxSockets = 8) {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  function request(url, { method = 'GET', headers = {}, body } = {}) {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(body);
      const req = http.request(
        url,
        {
          method,
          agent,
          headers: payload ? { ...headers, 'Content-Length': payload.length } : headers,
        },
        (res) => {
          const chunks = [];
          res.on('data', (chunk) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () =>
            resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }
  return { request, close: () => agent.destroy() };
}

/** A TCP port on loopback that nothing listens on right now. */
export function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Spawns a server and waits until `GET <url>/-/healthy` answers 200 through `client` (one of
 * {@link httpClient}); throws with its last stderr when it exits or never gets healthy. Returns
 * its pid and `stop()`, which sends SIGTERM and kills it after 10 s.
 */
export async function startServer(name, cmd, args, url, client) {
  const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`${name} exited: ${stderr}`);
    try {
      if ((await client.request(`${url}/-/healthy`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (i > 2000) throw new Error(`${name} did not become healthy`);
    await new Promise((r) => setTimeout(r, 10));
  }
  const stop = async () => {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
    clearTimeout(timer);
  };
  return { pid: child.pid, stop };
}

/** `promise`, or a rejection naming `what` once `ms` have passed without it settling. */
export function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Spawns a server as {@link startServer} does, but waits for `readyPath` (`/-/ready`: Prometheus
 * answers `/-/healthy` before it has replayed its log) to answer 200 within `timeoutMs`, and kills
 * the server when it exits or never gets there. `onSpawn(kill)` gets the kill at once, so a caller
 * can end the server even while it starts; `env` adds to the environment it inherits. Returns its
 * pid, `readyMs` (spawn to ready), `stop()` (SIGTERM, SIGKILL after 10 s) and `kill()` (SIGKILL
 * at once, for an emergency stop).
 */
export async function launchServer(
  name,
  cmd,
  args,
  url,
  client,
  { readyPath = '/-/ready', timeoutMs = 120_000, onSpawn, env } = {},
) {
  const t0 = performance.now();
  const child = spawn(cmd, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: env === undefined ? process.env : { ...process.env, ...env },
  });
  let stderr = '';
  let running = true;
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  const exited = new Promise((r) => {
    child.once('exit', r);
    // A spawn that failed (no such file) may never emit 'exit'.
    child.on('error', (error) => {
      stderr += `\n${error.message}`;
      if (child.pid === undefined) r();
    });
  }).then(() => (running = false));
  const kill = () => {
    if (running) child.kill('SIGKILL');
  };
  onSpawn?.(kill);
  try {
    for (let i = 0; ; i++) {
      if (!running) throw new Error(`${name} exited: ${stderr}`);
      try {
        const res = await withTimeout(client.request(`${url}${readyPath}`), 5_000, readyPath);
        if (res.status === 200) break;
      } catch {
        // not listening or not ready yet
      }
      if (i >= timeoutMs / 10 || performance.now() - t0 > timeoutMs)
        throw new Error(`${name} not ready within ${timeoutMs} ms: ${stderr}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  } catch (error) {
    kill();
    await exited;
    throw error;
  }
  const readyMs = performance.now() - t0;
  const stop = async () => {
    if (!running) return;
    child.kill('SIGTERM');
    const timer = setTimeout(kill, 10_000);
    await exited;
    clearTimeout(timer);
  };
  return { pid: child.pid, readyMs, stop, kill };
}
