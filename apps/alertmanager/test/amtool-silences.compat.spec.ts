import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { amtoolRunner, tableRows, type CliRunner } from './support/amtool-runner';
import { startServerProcess, type ServerProcess } from './support/server-process';
import { describeWhen } from '@redisx/testing';

/**
 * Upstream's `amtool` (Debian's 0.25, where installed) against our server, unchanged: silence
 * add, query (table and JSON), update, expire, and an alert added, silenced and queried.
 */
const amtoolBin = spawnSync('sh', ['-c', 'command -v amtool'], { encoding: 'utf8' }).stdout.trim();
const describeWithUpstream = describeWhen(
  !!amtoolBin,
  'upstream amtool silence compatibility skipped: amtool is not installed (apt-get install prometheus-alertmanager)',
);

describeWithUpstream('upstream amtool silence commands against our server', () => {
  let dir: string;
  let server: ServerProcess;
  let amtool: CliRunner;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-amtool-compat-'));
    await writeFile(
      join(dir, 'alertmanager.yml'),
      'route:\n  receiver: hook\nreceivers:\n  - name: hook\n',
    );
    server = await startServerProcess(join(dir, 'alertmanager.yml'));
    amtool = amtoolRunner(server.url, dir, amtoolBin);
  });
  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('adds, queries, updates and expires a silence', async () => {
    const added = await amtool(
      'silence',
      'add',
      'alertname=Test',
      '--duration=1h',
      '--comment=x',
      '--author=ops',
    );
    expect(added.code).toBe(0);
    const id = added.stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const [row] = tableRows((await amtool('silence', 'query')).stdout).filter((r) => r[0] === id);
    expect([row[1], row[3], row[4]]).toEqual(['alertname="Test"', 'ops', 'x']);

    const [silence] = JSON.parse((await amtool('-o', 'json', 'silence', 'query', 'Test')).stdout);
    expect(silence).toMatchObject({
      id,
      status: { state: 'active' },
      matchers: [{ isEqual: true, isRegex: false, name: 'alertname', value: 'Test' }],
    });

    // amtool sends back the stored start, so the server keeps the id.
    const updated = await amtool('silence', 'update', id, '--duration=2h', '--comment=y');
    expect(updated.code).toBe(0);
    expect(tableRows(updated.stdout)[0][0]).toBe(id);
    const [after] = JSON.parse((await amtool('-o', 'json', 'silence', 'query', 'Test')).stdout);
    expect(after).toMatchObject({ id, comment: 'y' });

    expect(await amtool('silence', 'expire', id)).toMatchObject({ code: 0, stdout: '' });
    expect(tableRows((await amtool('silence', 'query')).stdout)).toEqual([]);
    const expired = tableRows((await amtool('silence', 'query', '--expired')).stdout);
    expect(expired.map((r) => r[0])).toContain(id);
    expect((await amtool('silence', 'expire', id)).code).toBe(0);
  });

  it('shows an added alert as suppressed while silenced and active after the expiry', async () => {
    expect((await amtool('alert', 'add', 'Compat', 'severity=page')).code).toBe(0);
    const id = (await amtool('silence', 'add', 'Compat', '-c', 'quiet please')).stdout.trim();
    const [silenced] = JSON.parse(
      (await amtool('-o', 'json', 'alert', 'query', '-s', 'Compat')).stdout,
    );
    expect(silenced.status).toMatchObject({ state: 'suppressed', silencedBy: [id] });
    expect(tableRows((await amtool('alert', 'query', 'Compat')).stdout)).toEqual([]);

    expect((await amtool('silence', 'expire', id)).code).toBe(0);
    const rows = tableRows((await amtool('alert', 'query', 'Compat')).stdout);
    expect(rows.map((r) => [r[0], r[r.length - 1]])).toEqual([['Compat', 'active']]);
  });

  it('exits 1 with the server refusal for an invalid silence', async () => {
    const result = await amtool('silence', 'add', 'a=~".*"', '-c', 'x');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'silence invalid: at least one matcher must not match the empty string',
    );
  });
});
