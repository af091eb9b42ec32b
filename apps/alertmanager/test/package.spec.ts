import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { getFreePort, startProcess, waitFor } from '@redisx/testing';
import { launcherNodeFlags } from '../src/build/launcher-node-flags';
import { hasListened } from './support/server-process';

const REPO = join(__dirname, '../../..');

/** Runs a command to completion; a non-zero exit fails with the command's output. */
async function run(command: string, args: string[], cwd: string): Promise<string> {
  const options = { cwd, encoding: 'utf8' as const, maxBuffer: 16 * 1024 * 1024 };
  try {
    return (await promisify(execFile)(command, args, options)).stdout;
  } catch (error) {
    const { code, stdout, stderr } = error as { code?: number; stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} exited ${code}\n${stdout}${stderr}`);
  }
}

// `--yes=false`: run the installed binaries, never fetch a package of that name from the registry.
describe('the packed @redisx/alertmanager', () => {
  let work: string;
  let tarball: string;
  const consumer = () => join(work, 'consumer');

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'redisx-alertmanager-package-'));
    const args = ['tools/pack.mjs', '--destination', work, '@redisx/alertmanager'];
    tarball = (await run('node', args, REPO)).trim();
    await mkdir(consumer());
    const manifest = { name: 'alertmanager-consumer', version: '1.0.0', private: true };
    await writeFile(join(consumer(), 'package.json'), JSON.stringify(manifest));
    await run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball],
      consumer(),
    );
  }, 300_000);

  afterAll(() => rm(work, { recursive: true, force: true }));

  it('ships the binaries, their build output and bundles, the built web UI and the example configs, and no tests', async () => {
    const files = (await run('tar', ['-tzf', tarball], work)).trim().split('\n');
    expect(files).toEqual(
      expect.arrayContaining([
        'package/package.json',
        'package/bin/redisx-alertmanager.js',
        'package/bin/redisx-amtool.js',
        'package/dist/cli/alertmanager-main.js',
        'package/dist/cli/amtool-main.js',
        'package/dist/build/load-bundle.js',
        'package/dist/bundle/alertmanager-main.js',
        'package/dist/bundle/alertmanager-main.js.cache',
        'package/dist/bundle/amtool-main.js',
        'package/dist/bundle/amtool-main.js.cache',
        'package/dist/bundle/query-thread.entry.js',
        'package/dist/bundle/query-thread.bundle.js',
        'package/config/alertmanager.yml',
        'package/config/quickstart.yml',
        'package/dist/public/index.html',
        'package/dist/public/app.js',
        'package/dist/public/app.css',
        'package/dist/public/icon.svg',
      ]),
    );
    // The UI's sources stay out: the bundle is all the page loads.
    expect(files.filter((file) => file.startsWith('package/ui/'))).toEqual([]);
    expect(
      files.filter((file) => /\.spec\.|\/testdata\/|\/testing\/|\/src\/|\/test\//.test(file)),
    ).toEqual([]);
  });

  it('runs redisx-alertmanager --help from the installed copy', async () => {
    const help = await run('npx', ['--yes=false', 'redisx-alertmanager', '--help'], consumer());
    expect(help).toContain('--config.file');
    expect(help).toContain('--storage.path');
  });

  it('runs redisx-amtool --help from the installed copy', async () => {
    const help = await run('npx', ['--yes=false', 'redisx-amtool', '--help'], consumer());
    expect(help).toContain('redisx-amtool');
  });

  // The bundle resolves what it leaves outside (lmdb, a native addon) from the consumer's
  // node_modules, and a query runs on a query thread started from the bundle's folder.
  it('serves alerts and a query from the installed copy', async () => {
    const installed = join(consumer(), 'node_modules', '@redisx', 'alertmanager');
    const port = await getFreePort();
    const url = `http://127.0.0.1:${port}`;
    const server = startProcess(join(consumer(), 'node_modules', '.bin', 'redisx-alertmanager'), [
      `--config.file=${join(installed, 'config', 'alertmanager.yml')}`,
      `--storage.path=${join(work, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ]);
    try {
      await waitFor('the installed server', async () => {
        if (server.child.exitCode !== null) throw new Error(`exited:\n${server.output()}`);
        return hasListened(server) && (await fetch(`${url}/-/ready`)).status === 200;
      });
      // The bin's shell line replaced itself with Node (one process, signals straight to it),
      // with glibc's allocator set to hand large blocks back.
      const pid = server.child.pid;
      const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
      const flags = launcherNodeFlags(
        await readFile(join(installed, 'bin', 'redisx-alertmanager.js'), 'utf8'),
      );
      expect(flags).toContain('--max-semi-space-size=4');
      // V8's background threads: one fewer than the cores, from 1 to 4.
      const pool = Math.min(4, Math.max(1, availableParallelism() - 1));
      expect(argv.slice(1, flags.length + 3)).toEqual([
        ...flags,
        `--v8-pool-size=${pool}`,
        join(consumer(), 'node_modules', '.bin', 'redisx-alertmanager'),
      ]);
      expect(await readFile(`/proc/${pid}/comm`, 'utf8')).toMatch(/^node/);
      const environ = (await readFile(`/proc/${pid}/environ`, 'utf8')).split('\0');
      expect(environ).toContain('GLIBC_TUNABLES=glibc.malloc.mmap_threshold=1048576');
      const posted = await fetch(`${url}/api/v2/alerts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify([{ labels: { alertname: 'Installed' } }]),
      });
      expect(posted.status).toBe(200);
      const alerts = (await (await fetch(`${url}/api/v2/alerts`)).json()) as Array<{
        labels: Record<string, string>;
      }>;
      expect(alerts.map((a) => a.labels.alertname)).toEqual(['Installed']);
      const query = await fetch(`${url}/api/v1/query?query=vector(42)&time=1700000000`);
      expect(await query.json()).toEqual({
        status: 'success',
        data: { resultType: 'vector', result: [{ metric: {}, value: [1700000000, '42'] }] },
      });
    } finally {
      await server.stop('SIGTERM');
    }
  }, 60_000);
});
