import { readFile } from 'node:fs/promises';
import { glob } from '../template';
import { parseRuleFile, type RuleGroup } from './rule-file';

/** A group with the file it came from (its key is `file;name`). */
export interface LoadedGroup {
  readonly file: string;
  readonly group: RuleGroup;
}

/** Rule files that did not load: every problem, prefixed with its file as promtool prints it. */
export class RuleLoadError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
  }
}

/**
 * Reads the rule files the `rule_files` patterns match (in pattern order, each pattern's files
 * sorted, a file matched twice read once) and validates every one; throws {@link RuleLoadError}
 * with all their problems if any file is invalid or unreadable, so a bad reload changes nothing.
 */
export async function loadRuleGroups(patterns: readonly string[]): Promise<LoadedGroup[]> {
  const files: string[] = [];
  const problems: string[] = [];
  for (const pattern of patterns) {
    let matched: string[];
    try {
      matched = await glob(pattern);
    } catch (error) {
      problems.push(`error retrieving rule files for ${pattern}: ${(error as Error).message}`);
      continue;
    }
    for (const file of matched) if (!files.includes(file)) files.push(file);
  }
  const loaded: LoadedGroup[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      problems.push(`${file}: ${(error as Error).message}`);
      continue;
    }
    const result = parseRuleFile(text);
    if (!result.ok) problems.push(...result.errors.map((e) => `${file}: ${e}`));
    else loaded.push(...result.groups.map((group) => ({ file, group })));
  }
  if (problems.length > 0) throw new RuleLoadError(problems);
  return loaded;
}
