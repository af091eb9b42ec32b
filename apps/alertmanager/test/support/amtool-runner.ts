import { runProcess } from '@redisx/testing';
import { AMTOOL_BIN } from './server-process';

/** The result of one CLI run. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs an amtool-compatible CLI: ours (`node bin/redisx-amtool.js`) or an upstream binary. */
export type CliRunner = (...args: string[]) => Promise<CliResult>;

/**
 * A runner against `url` with `home` as `$HOME` (so only the config file a test writes there is
 * read); `command` is an upstream binary, or undefined for ours.
 */
export function amtoolRunner(url: string, home: string, command?: string): CliRunner {
  const [bin, prefix] = command ? [command, []] : [process.execPath, [AMTOOL_BIN]];
  return (...args) =>
    runProcess(bin, [...prefix, `--alertmanager.url=${url}`, ...args], { env: { HOME: home } });
}

/** The data rows of a table printed by amtool (the header dropped), split on runs of spaces. */
export function tableRows(stdout: string): string[][] {
  return stdout
    .trim()
    .split('\n')
    .slice(1)
    .filter((line) => line.trim() !== '')
    .map((line) => line.trim().split(/\s{2,}/));
}
