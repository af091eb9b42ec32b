// Configuration loading: in-process parse time of the bundled examples and of a large generated
// configuration, then `redisx-amtool check-config` side by side with Debian's `amtool` on the
// same files, and the server's time from start to a healthy answer side by side with Debian's
// `prometheus-alertmanager`.
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  findPeer,
  fmt,
  freePort,
  median,
  oursCommand,
  repoRoot,
  requireFromRepo,
  skipPeer,
  timeMs,
} from './bench-support.mjs';

const { parseConfig } = requireFromRepo('./apps/alertmanager/dist/config/index.js');
const work = mkdtempSync(join(tmpdir(), 'bench-config-'));

/** A configuration with `n` routes, receivers and inhibit rules, of the shapes users write. */
function largeConfig(n) {
  const lines = [
    'global:',
    '  resolve_timeout: 5m',
    '  slack_api_url: http://127.0.0.1:1/slack',
    'route:',
  ];
  lines.push('  receiver: r0', "  group_by: ['alertname', 'severity']", '  routes:');
  for (let i = 0; i < n; i++) {
    lines.push(
      `    - matchers: ['team="t${i}"', 'severity=~"warning|critical"']`,
      `      receiver: r${i}`,
    );
    lines.push('      group_wait: 30s', '      continue: true');
  }
  lines.push('inhibit_rules:');
  for (let i = 0; i < n; i++) {
    lines.push(`  - source_matchers: ['severity="critical"', 'team="t${i}"']`);
    lines.push(`    target_matchers: ['severity="warning"']`, "    equal: ['alertname']");
  }
  lines.push('receivers:');
  for (let i = 0; i < n; i++) {
    lines.push(
      `  - name: r${i}`,
      '    webhook_configs:',
      `      - url: http://127.0.0.1:1/hook/${i}`,
    );
    lines.push(
      '    slack_configs:',
      `      - channel: '#team-${i}'`,
      '        send_resolved: true',
    );
  }
  return `${lines.join('\n')}\n`;
}

const files = {
  'quickstart.yml': join(repoRoot, 'apps/alertmanager/config/quickstart.yml'),
  'alertmanager.yml': join(repoRoot, 'apps/alertmanager/config/alertmanager.yml'),
  'large (1000 routes)': join(work, 'large.yml'),
};
// alertmanager.yml uses this project's aliases and `*_file` fields that 0.25 lacks, so the
// side-by-side runs use the files written in upstream's own vocabulary.
const sharedFiles = ['quickstart.yml', 'large (1000 routes)'];
writeFileSync(files['large (1000 routes)'], largeConfig(1000));

console.log('in-process parseConfig (median of runs):');
for (const [name, file] of Object.entries(files)) {
  const text = readFileSync(file, 'utf8');
  const runs = name.startsWith('large') ? 20 : 500;
  for (let i = 0; i < 3; i++) parseConfig(text, file);
  const times = [];
  for (let i = 0; i < runs; i++) times.push(await timeMs(() => parseConfig(text, file)));
  console.log(
    `  ${name.padEnd(22)} ${fmt(median(times), 3)} ms  (${runs} runs, ${text.length} bytes)`,
  );
}

const ours = join(repoRoot, 'apps/alertmanager/bin/redisx-amtool.js');
const amtool = findPeer('amtool');
console.log('\ncheck-config wall time, median of 5 runs:');
for (const name of sharedFiles) {
  const file = files[name];
  const run = (cmd, args) =>
    median(
      [0, 1, 2, 3, 4].map(() => {
        const start = process.hrtime.bigint();
        const result = spawnSync(cmd, args, { encoding: 'utf8' });
        if (result.status !== 0)
          throw new Error(`${cmd} failed on ${file}: ${result.stdout}${result.stderr}`);
        return Number(process.hrtime.bigint() - start) / 1e6;
      }),
    );
  const mine = run(process.execPath, [ours, 'check-config', file]);
  let line = `  ${name.padEnd(22)} redisx-amtool ${fmt(mine)} ms`;
  if (amtool) {
    const theirs = run(amtool, ['check-config', file]);
    line += `   amtool ${fmt(theirs)} ms   ratio ${fmt(mine / theirs, 2)}x (ours/upstream)`;
  }
  console.log(line);
}
if (!amtool) skipPeer('amtool', 'not installed (apt-get install prometheus-alertmanager)');

/** Milliseconds from spawning a server to its first 200 on /-/healthy. */
async function startupMs(cmd, args, port) {
  const start = process.hrtime.bigint();
  const child = spawn(cmd, args, { stdio: 'ignore' });
  try {
    for (;;) {
      try {
        const r = await fetch(`http://127.0.0.1:${port}/-/healthy`);
        if (r.status === 200) return Number(process.hrtime.bigint() - start) / 1e6;
      } catch {
        // not listening yet
      }
      if (child.exitCode !== null) throw new Error(`${cmd} exited with ${child.exitCode}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

console.log('\nstart to healthy, median of 5 runs (quickstart.yml):');
const upstream = findPeer('prometheus-alertmanager');
const mineStart = [];
const theirStart = [];
for (let i = 0; i < 5; i++) {
  let port = await freePort();
  mineStart.push(
    await startupMs(
      ...oursCommand([
        `--config.file=${files['quickstart.yml']}`,
        `--storage.path=${join(work, `ours-${i}`)}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ]),
      port,
    ),
  );
  if (upstream) {
    port = await freePort();
    theirStart.push(
      await startupMs(
        upstream,
        [
          `--config.file=${files['quickstart.yml']}`,
          `--storage.path=${join(work, `theirs-${i}`)}`,
          `--web.listen-address=127.0.0.1:${port}`,
          '--cluster.listen-address=',
        ],
        port,
      ),
    );
  }
}
let line = `  redisx-alertmanager ${fmt(median(mineStart))} ms`;
if (upstream) {
  line += `   prometheus-alertmanager ${fmt(median(theirStart))} ms   ratio ${fmt(median(mineStart) / median(theirStart), 2)}x (ours/upstream)`;
}
console.log(line);
if (!upstream)
  skipPeer('prometheus-alertmanager', 'not installed (apt-get install prometheus-alertmanager)');
rmSync(work, { recursive: true, force: true });
