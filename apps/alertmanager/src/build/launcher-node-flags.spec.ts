import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launcherNodeFlags } from './launcher-node-flags';

const PACKAGE = join(__dirname, '..', '..');
const bin = readFileSync(join(PACKAGE, 'bin', 'redisx-alertmanager.js'), 'utf8');
const launcher = (line: string) => `#!/bin/sh\n${line}\n'use strict';\n`;

describe('launcherNodeFlags', () => {
  it.each([
    ['no flags', '// 2>/dev/null; exec node "$0" "$@"', []],
    [
      'one flag',
      '// 2>/dev/null; X=1 && exec node --max-semi-space-size=4 "$0" "$@"',
      ['--max-semi-space-size=4'],
    ],
    ['two flags', '// 2>/dev/null; exec node --a=1 --b "$0" "$@"', ['--a=1', '--b']],
    [
      'the flags but one whose value the shell computes',
      '// 2>/dev/null; p=3 && exec node --a=1 --v8-pool-size=$((p<1?1:p)) "$0" "$@"',
      ['--a=1'],
    ],
  ])('reads %s from the shell line', (_, line, flags) => {
    expect(launcherNodeFlags(launcher(line))).toEqual(flags);
  });

  it.each([
    ['a Node shebang', "#!/usr/bin/env node\n'use strict';\n"],
    ['a line that is not a comment to Node', launcher('exec node "$0" "$@"')],
    ['a line that does not pass its arguments on', launcher('// 2>/dev/null; exec node "$0"')],
  ])('refuses a bin with %s', (_, text) => {
    expect(() => launcherNodeFlags(text)).toThrow(/the bin's second line is not its launcher/);
  });

  it("reads the server bin's own flags", () => {
    expect(launcherNodeFlags(bin)).toEqual(['--max-semi-space-size=4']);
  });

  // Written by the build (bundle.mjs); V8 refuses a cache made under other flags. The bin's pool
  // size, which the build leaves out, at its extremes.
  const server = launcherNodeFlags(bin);
  it.each([
    ['the server', 'alertmanager-main.js', [...server, '--v8-pool-size=1']],
    ['the server', 'alertmanager-main.js', [...server, '--v8-pool-size=4']],
    ["the server's query thread", 'query-thread.bundle.js', [...server, '--v8-pool-size=1']],
    ['amtool', 'amtool-main.js', []],
  ])("has V8 accept %s's built code cache under its bin's flags (%#)", (_, name, flags) => {
    const file = join(PACKAGE, 'dist', 'bundle', name);
    const loader = join(PACKAGE, 'dist', 'build', 'load-bundle.js');
    const script = `const { compileBundle } = require(${JSON.stringify(loader)});
      const cache = require('node:fs').readFileSync(${JSON.stringify(`${file}.cache`)});
      console.log(compileBundle(${JSON.stringify(file)}, cache).script.cachedDataRejected);`;
    const rejected = execFileSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' });
    expect(rejected.trim()).toBe('false');
  });
});
