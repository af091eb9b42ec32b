import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callApi } from './amtool-http';
import { amtoolTarget, checkExistingFile } from './amtool-target';
import { run } from './amtool-main';

describe('how amtool reaches the Alertmanager', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'amtool-target-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const target = (url: string, httpConfigFile = '') =>
    amtoolTarget({ url, timeout: '5s', httpConfigFile });

  it("checks --http.config.file as kingpin's ExistingFile", () => {
    expect(() => checkExistingFile(join(dir, 'nope.yml'))).toThrow(
      `path '${join(dir, 'nope.yml')}' does not exist`,
    );
    expect(() => checkExistingFile(dir)).toThrow(/^'amtool-target-\w+' is a directory$/);
  });

  it.each([
    ['foo: 1\n', 'failed to load HTTP config file: {file}:1: foo: field foo not found'],
    [
      'tls_config:\n  ca_file: missing.crt\n',
      'failed to create a new HTTP client: unable to read CA cert: unable to read file {dir}/missing.crt: open {dir}/missing.crt: no such file or directory',
    ],
  ])('reports a config file %j that cannot be used as upstream', async (yaml, message) => {
    const file = join(dir, 'http.yml');
    await writeFile(file, yaml);
    await expect(target('http://127.0.0.1:9093', file)).rejects.toThrow(
      message.replaceAll('{file}', file).replaceAll('{dir}', dir),
    );
  });

  it('refuses user info in the URL together with --http.config.file', async () => {
    const file = join(dir, 'empty.yml');
    await writeFile(file, '');
    await expect(target('http://a:b@127.0.0.1:9093', file)).rejects.toThrow(
      'basic authentication and http.config.file are mutually exclusive',
    );
  });

  it('sends user info in the URL as basic auth, and keeps it out of URLs and messages', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(401).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const t = await target(`http://ad%40min:s3cret@127.0.0.1:${port}/`);
      expect(t.baseUrl).toBe(`http://127.0.0.1:${port}/`);
      await expect(
        callApi(t, { method: 'GET', path: '/silences', operation: 'getSilences' }),
      ).rejects.toThrow(
        'response status code does not match any response statuses defined for this endpoint in the swagger spec (status 401): {}',
      );
      expect(seen[0].authorization).toBe(`Basic ${btoa('ad@min:s3cret')}`);
    } finally {
      server.close();
    }
  });

  it('takes --http.config.file from the amtool config file too', async () => {
    const config = join(dir, 'amtool.yml');
    await writeFile(config, `http.config.file: ${join(dir, 'absent.yml')}\n`);
    const lines: string[] = [];
    await expect(
      run(['silence', 'query'], (line) => lines.push(line), undefined, [config]),
    ).rejects.toThrow(`path '${join(dir, 'absent.yml')}' does not exist`);
  });
});
