// Small helpers shared by the benchmarks: timing, statistics, peers found on PATH.
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const requireFromRepo = createRequire(join(repoRoot, 'package.json'));

/** Median of a list of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
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

/** Formats a number with a fixed number of decimals. */
export const fmt = (n, digits = 1) => n.toFixed(digits);

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
