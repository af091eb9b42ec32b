import { statSync } from 'node:fs';
import { runRuleTestFile } from '../rules';
import type { EnabledFeatures } from './feature-flags';
import { CommandLineError } from './flags/flag-spec';

/**
 * `redisx-amtool test rules FILES`: promtool's `test rules`, with its output (progress and
 * blank lines on stdout, failures and warnings on stderr) and exit code (1 when any file fails).
 */
export async function runTestRules(
  files: readonly string[],
  out: (line: string) => void,
  err: (line: string) => void,
  features: EnabledFeatures = { promqlDelayedNameRemoval: false, unknown: [] },
): Promise<number> {
  // As promtool: an unknown feature is a warning on stdout, and ignored.
  for (const name of features.unknown) {
    out(`  WARNING: Unknown feature passed to --enable-feature: ${name}`);
  }
  for (const file of files) {
    try {
      statSync(file);
    } catch {
      throw new CommandLineError(`path '${file}' does not exist`);
    }
  }
  let failed = false;
  for (const file of files) {
    out(`Unit Testing:  ${file}`);
    const { errors, warnings } = await runRuleTestFile(file, {
      delayedNameRemoval: features.promqlDelayedNameRemoval,
    });
    for (const warning of warnings) err(warning);
    if (errors.length > 0) {
      err('  FAILED:');
      for (const error of errors) {
        err(error);
        out('');
      }
      failed = true;
    } else {
      out('  SUCCESS');
    }
    out('');
  }
  return failed ? 1 : 0;
}
