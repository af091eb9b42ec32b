import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { CommandSpec } from './flags/flag-spec';

/** Where amtool reads defaults for its flags, first match wins. */
export function amtoolConfigFiles(): string[] {
  return [join(homedir(), '.config', 'prometheus', 'amtool.yml'), '/etc/prometheus/amtool.yml'];
}

/**
 * Reads flag defaults from amtool's config files: YAML maps whose keys are flag names
 * (`alertmanager.url`, `author`, `require-comment`, `output`, `date.format`, ...). A key in an
 * earlier file wins; missing files are skipped, an unreadable one is an error.
 */
export function readAmtoolConfig(files: readonly string[]): Record<string, string | boolean> {
  const values: Record<string, string | boolean> = {};
  for (const file of [...files].reverse()) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    const doc = parse(text) as unknown;
    if (doc === null || doc === undefined) continue;
    if (typeof doc !== 'object' || Array.isArray(doc)) {
      throw new Error(`${file}: expected a map of flag names to values`);
    }
    for (const [key, value] of Object.entries(doc as Record<string, unknown>)) {
      values[key] = typeof value === 'boolean' ? value : String(value);
    }
  }
  return values;
}

/**
 * The command tree with flag defaults replaced by configured values, so that flags given on the
 * command line still win, as with amtool's config resolver.
 */
export function withFlagDefaults(
  spec: CommandSpec,
  values: Readonly<Record<string, string | boolean>>,
): CommandSpec {
  return {
    ...spec,
    flags: spec.flags?.map((flag) => {
      if (!(flag.name in values)) return flag;
      const value = values[flag.name];
      return {
        ...flag,
        default: flag.kind === 'bool' ? value === true || value === 'true' : String(value),
      };
    }),
    commands: spec.commands?.map((c) => withFlagDefaults(c, values)),
  };
}
