import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runScenario, SCENARIO_PATHS } from './support/scenario-run';
import { RECORDING_FILE, type Recording } from './support/upstream-recording';

/**
 * The notification scenario on this server, compared field by field with what upstream
 * Alertmanager 0.25 sent for the same configuration and alerts (recorded by
 * `receivers.compat.spec.ts`): chat (Slack), paging (PagerDuty v2), webhook and email requests,
 * with default and custom templates, firing then resolved.
 */
describe('receivers against upstream recordings', () => {
  let dir: string;
  let ours: Recording;
  let upstream: Recording;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-receivers-'));
    upstream = JSON.parse(await readFile(RECORDING_FILE, 'utf8')) as Recording;
    ours = await runScenario(false, dir);
  }, 40_000);

  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each(SCENARIO_PATHS)(
    'sends %s a firing and then a resolved request equal to upstream',
    (path) => {
      expect(ours.http[path]).toHaveLength(2);
      expect(ours.http[path]).toEqual(upstream.http[path]);
    },
  );

  it('mails subjects, headers and text parts equal to upstream, firing and resolved', () => {
    expect(ours.mails.map((m) => m.comparable)).toEqual(upstream.mails.map((m) => m.comparable));
  });

  it('mails the default HTML body with the rendered subject and alerts', () => {
    const html =
      ours.mails.find((m) => m.comparable.subject === '[FIRING:2] DiskFull (node critical)')
        ?.html ?? '';
    expect(html).toContain('<title>[FIRING:2] DiskFull (node critical)</title>');
    expect(html).toContain('[2] Firing');
    expect(html).toContain('description = Less than 5% left on a:9100 &lt;root&gt;.');
    expect(html).toContain('href="http://prometheus.example:9090/graph?g0.expr=disk&amp;g0.tab=1"');
  });
});
