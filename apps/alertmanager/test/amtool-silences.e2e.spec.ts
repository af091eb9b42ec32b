import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getFreePort } from '@redisx/testing';
import { amtoolRunner, tableRows, type CliRunner } from './support/amtool-runner';
import { startServerProcess, type ServerProcess } from './support/server-process';
import { listSilences } from './support/silences-client';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DATE = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/;

/** `redisx-amtool silence ...` against the real server, as the spec and amtool show it. */
describe('redisx-amtool silence commands', () => {
  let dir: string;
  let server: ServerProcess;
  let amtool: CliRunner;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-amtool-silences-'));
    await writeFile(
      join(dir, 'alertmanager.yml'),
      'route:\n  receiver: hook\nreceivers:\n  - name: hook\n',
    );
    server = await startServerProcess(join(dir, 'alertmanager.yml'));
    amtool = amtoolRunner(server.url, dir);
  });
  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('adds, queries and expires a silence exactly as the spec shows', async () => {
    const added = await amtool('silence', 'add', 'alertname=Test', '--duration=1h', '--comment=x');
    expect(added).toMatchObject({ code: 0, stderr: '' });
    const id = added.stdout.trim();
    expect(id).toMatch(UUID);

    const query = await amtool('silence', 'query');
    expect(query.stdout.split('\n')[0]).toMatch(
      /^ID\s+Matchers\s+Ends At\s+Created By\s+Comment\s*$/,
    );
    const [row] = tableRows(query.stdout).filter((r) => r[0] === id);
    expect(row.slice(1, 2)).toEqual(['alertname="Test"']);
    expect(row[2]).toMatch(DATE);
    expect(row[4]).toBe('x');

    expect(await amtool('silence', 'expire', id)).toMatchObject({ code: 0, stdout: '' });
    expect(tableRows((await amtool('silence', 'query')).stdout).some((r) => r[0] === id)).toBe(
      false,
    );
    const expired = await amtool('silence', 'query', '--expired');
    expect(tableRows(expired.stdout).some((r) => r[0] === id)).toBe(true);
    expect((await amtool('silence', 'expire', id)).code).toBe(0);
  });

  it('updates in place, prints JSON and ids, and imports its own JSON', async () => {
    const id = (
      await amtool('silence', 'add', 'Upd', 'job=~"a.*"', '-c', 'first', '-a', 'me')
    ).stdout.trim();
    const updated = await amtool('silence', 'update', id, '--duration=3h', '--comment=second');
    expect(updated.code).toBe(0);
    expect(tableRows(updated.stdout)[0]).toEqual([
      id,
      'alertname="Upd" job=~"a.*"',
      expect.stringMatching(DATE),
      'me',
      'second',
    ]);

    const json = await amtool('-o', 'json', 'silence', 'query', 'Upd');
    const [silence] = JSON.parse(json.stdout);
    expect(silence).toMatchObject({
      id,
      createdBy: 'me',
      comment: 'second',
      status: { state: 'active' },
    });
    expect(Date.parse(silence.endsAt) - Date.parse(silence.startsAt)).toBe(3 * 3_600_000);
    expect((await amtool('silence', 'query', '-q', 'Upd')).stdout.trim()).toBe(id);

    await writeFile(join(dir, 'export.json'), json.stdout);
    const imported = await amtool('silence', 'import', '--force', join(dir, 'export.json'));
    expect(imported.code).toBe(0);
    expect(imported.stdout.trim()).toMatch(UUID);
    expect(imported.stdout.trim()).not.toBe(id);
    expect((await listSilences(server.url)).filter((s) => s.comment === 'second')).toHaveLength(2);
  });

  it('takes defaults from amtool.yml in the home directory; flags still win', async () => {
    await mkdir(join(dir, '.config', 'prometheus'), { recursive: true });
    const file = join(dir, '.config', 'prometheus', 'amtool.yml');
    await writeFile(file, 'author: from-config\noutput: json\n');
    expect((await amtool('silence', 'add', 'alertname=Configured', '-c', 'x')).code).toBe(0);
    const [silence] = JSON.parse((await amtool('silence', 'query', 'Configured')).stdout);
    expect(silence.createdBy).toBe('from-config');
    const simple = await amtool('-o', 'simple', 'silence', 'query', 'Configured');
    expect(tableRows(simple.stdout)[0][3]).toBe('from-config');
    await rm(join(dir, '.config'), { recursive: true });
  });

  it.each<[string, string[], RegExp]>([
    [
      'a missing comment',
      ['silence', 'add', 'a=b'],
      /^redisx-amtool: error: comment required by config\n$/,
    ],
    [
      'a refused silence',
      ['silence', 'add', 'a=""', '-c', 'x'],
      /\[POST \/silences\]\[400\] postSilencesBadRequest {2}"silence invalid: at least one matcher must not match the empty string"/,
    ],
    [
      'an unknown id',
      ['silence', 'expire', '00000000-0000-0000-0000-000000000000'],
      /\[DELETE \/silence\/\{silenceID\}\]\[404\] deleteSilenceNotFound/,
    ],
  ])('exits 1 with a clear error for %s', async (_, args, message) => {
    const result = await amtool(...args);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
  });

  it('exits 1 when the server is unreachable', async () => {
    const port = await getFreePort();
    const result = await amtoolRunner(`http://127.0.0.1:${port}`, dir)('silence', 'query');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^redisx-amtool: error: Get "http:\/\/127\.0\.0\.1:\d+\/api\/v2\/silences": .*ECONNREFUSED/,
    );
  });
});
