import { readFileSync, statSync } from 'node:fs';
import { duplicateRules, parseRuleFile } from '../rules';
import { CommandLineError } from './flags/flag-spec';

export interface CheckRulesOptions {
  /** `duplicate-rules` (the default), `all` or `none`. */
  readonly lint: string;
  /** Lint problems exit with 3 instead of 0. */
  readonly lintFatal: boolean;
}

/**
 * `redisx-amtool check rules FILES`: promtool's `check rules`, with its output (progress on
 * stdout, problems on stderr) and exit codes (1 for an invalid file, 3 for lint problems with
 * `--lint-fatal`, else 0).
 */
export function runCheckRules(
  files: readonly string[],
  options: CheckRulesOptions,
  out: (line: string) => void,
  err: (line: string) => void,
): number {
  for (const file of files) {
    try {
      statSync(file);
    } catch {
      throw new CommandLineError(`path '${file}' does not exist`);
    }
  }
  let failed = false;
  let invalid = false;
  for (const file of files) {
    out(`Checking ${file}`);
    const result = parseRuleFile(readFileSync(file, 'utf8'));
    if (!result.ok) {
      err('  FAILED:');
      for (const e of result.errors) err(`${file}: ${e}`);
      failed = invalid = true;
    } else {
      const duplicates = options.lint === 'none' ? [] : duplicateRules(result.groups);
      if (duplicates.length > 0) {
        err('  FAILED:');
        err(`lint error ${duplicates.length} duplicate rule(s) found.`);
        for (const d of duplicates) {
          err(`Metric: ${d.name}`);
          err('Label(s):');
          for (const [name, value] of d.labels) err(`\t${name}: ${value}`);
        }
        err('Might cause inconsistency while recording expressions');
        failed = true;
      } else {
        const count = result.groups.reduce((n, g) => n + g.rules.length, 0);
        out(`  SUCCESS: ${count} rules found`);
      }
    }
    out('');
  }
  if (invalid) return 1;
  if (failed && options.lintFatal) return 3;
  return 0;
}
