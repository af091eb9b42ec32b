import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess } from '@redisx/testing';
import { AMTOOL_BIN, startServerProcess, type ServerProcess } from './support/server-process';
import { installedCommand } from './support/installed-command';

/**
 * `alert add` and `alert query` against the real server: with our `redisx-amtool`, and with
 * upstream's `amtool` (Debian's 0.25, when installed) unchanged.
 */
const upstreamAmtool = installedCommand('amtool');
if (!upstreamAmtool) console.warn('upstream amtool comparison skipped: amtool is not installed');

const config = `route:
  receiver: hook
  group_wait: 1h
receivers:
  - name: hook
    webhook_configs:
      - url: http://127.0.0.1:9/
`;

describe('amtool alert commands against the server', () => {
  let dir: string;
  let server: ServerProcess;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-amtool-'));
    await writeFile(join(dir, 'alertmanager.yml'), config);
    server = await startServerProcess(join(dir, 'alertmanager.yml'));
  });
  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const tools: [string, string, string[]][] = [
    ['redisx-amtool', process.execPath, [AMTOOL_BIN]],
    ...(upstreamAmtool ? [['amtool', upstreamAmtool, []] as [string, string, string[]]] : []),
  ];

  it.each(tools)('%s adds an alert and finds it again', async (name, command, prefix) => {
    const run = (...args: string[]) =>
      runProcess(command, [...prefix, `--alertmanager.url=${server.url}`, ...args]);
    const alertname = `Added_${name.replace(/\W/g, '_')}`;
    const added = await run(
      'alert',
      'add',
      alertname,
      'severity=warning',
      '--annotation=summary=from the CLI',
    );
    expect(added).toMatchObject({ code: 0 });

    const simple = await run('alert', 'query', alertname);
    expect(simple.code).toBe(0);
    const lines = simple.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^Alertname\s+Starts At\s+Summary\s+State\s*$/);
    expect(lines.slice(1)).toHaveLength(1);
    expect(lines[1]).toMatch(
      new RegExp(
        `^${alertname}\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC\\s+from the CLI\\s+active\\s*$`,
      ),
    );

    const json = await run('-o', 'json', 'alert', 'query', `alertname=${alertname}`);
    const [alert] = JSON.parse(json.stdout);
    expect(alert).toMatchObject({
      labels: { alertname, severity: 'warning' },
      annotations: { summary: 'from the CLI' },
      receivers: [{ name: 'hook' }],
      status: { state: 'active', silencedBy: [], inhibitedBy: [] },
    });
  });

  it.each(tools)(
    '%s fails with exit code 1 when the server is unreachable',
    async (_name, command, prefix) => {
      const result = await runProcess(command, [
        ...prefix,
        '--alertmanager.url=http://127.0.0.1:9/',
        'alert',
        'query',
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/error/);
    },
  );
});
