import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { amtoolRunner } from './support/amtool-runner';
import { metricValue, startServerProcess, type ServerProcess } from './support/server-process';

const CONFIG = `
route: {receiver: chat}
receivers:
  - name: chat
    slack_configs: [{api_url: 'http://127.0.0.1:1/chat', title: '{{ template "my.title" . }}'}]
templates: ['*.tmpl']
`;

/**
 * Templates are loaded with each configuration: one that does not parse, or that fails to render
 * a receiver's field, refuses a reload with the message check-config prints for it.
 */
describe('templates on reload', () => {
  let dir: string;
  let server: ServerProcess;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-templates-'));
    await writeFile(join(dir, 'my.tmpl'), '{{ define "my.title" }}{{ .Status }}{{ end }}');
    await writeFile(join(dir, 'am.yml'), CONFIG);
    server = await startServerProcess(join(dir, 'am.yml'));
  }, 20_000);

  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a reload that check-config refuses, with the same message', async () => {
    await writeFile(
      join(dir, 'my.tmpl'),
      '{{ define "my.title" }}{{ template "gone" . }}{{ end }}',
    );
    const check = await amtoolRunner(server.url, dir)('check-config', join(dir, 'am.yml'));
    expect(check.code).toBe(1);
    const failed = /^ {2}FAILED: (.*)$/m.exec(check.stdout)?.[1];
    expect(failed).toBe(
      'receivers[chat].slack_configs[0].title: template: my.tmpl:1:26: executing "my.title" at <{{template "gone" .}}>: template "gone" not defined',
    );
    const res = await fetch(`${server.url}/-/reload`, { method: 'POST' });
    expect(res.status).toBe(500);
    expect(await res.text()).toBe(`failed to reload config: ${failed}\n`);
  });

  it('refuses a reload whose template does not parse and keeps the running configuration', async () => {
    const before = await (await fetch(`${server.url}/metrics`)).text();
    await writeFile(join(dir, 'my.tmpl'), '{{ define "my.title" }}{{ if }}{{ end }}');
    const res = await fetch(`${server.url}/-/reload`, { method: 'POST' });
    expect(res.status).toBe(500);
    expect(await res.text()).toBe(
      'failed to reload config: template: my.tmpl:1:29: missing value for if\n',
    );
    const after = await (await fetch(`${server.url}/metrics`)).text();
    expect(metricValue(after, 'alertmanager_config_last_reload_successful')).toBe(0);
    expect(metricValue(after, 'alertmanager_config_hash')).toBe(
      metricValue(before, 'alertmanager_config_hash'),
    );
  });
});
