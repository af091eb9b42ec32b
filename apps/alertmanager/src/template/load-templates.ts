import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { DEFAULT_TEMPLATES } from './default-templates';
import { GlobPattern } from './glob-match';
import { TemplateSet } from './template-set';

const hasMeta = (s: string) => /[*?[\\]/.test(s);

/** Go's `filepath.Glob`: the files matching an absolute pattern, sorted; none is not an error. */
export async function glob(pattern: string): Promise<string[]> {
  // Go checks the whole pattern before reading anything: a malformed one fails even unmatched.
  new GlobPattern(pattern);
  if (!hasMeta(pattern)) {
    try {
      await readFile(pattern);
      return [pattern];
    } catch {
      return [];
    }
  }
  const dirs = hasMeta(dirname(pattern)) ? await glob(dirname(pattern)) : [dirname(pattern)];
  const segment = new GlobPattern(basename(pattern));
  const found: string[] = [];
  for (const dir of dirs) {
    let entries: string[];
    try {
      entries = await readdir(dir);
    } catch {
      continue;
    }
    found.push(...entries.filter((e) => segment.matches(e)).map((e) => join(dir, e)));
  }
  return found.sort();
}

/** The default templates alone. */
export function defaultTemplates(): TemplateSet {
  return DEFAULT_TEMPLATES.reduce((set, t) => set.with(t.name, t.source), TemplateSet.empty());
}

/**
 * Upstream's `template.FromGlobs`: the defaults, then every file the globs match, in order,
 * each parsed as a template named after its file; later definitions override earlier ones.
 * Throws the first file that cannot be read or parsed.
 */
export async function loadTemplates(globs: readonly string[]): Promise<TemplateSet> {
  let set = defaultTemplates();
  for (const pattern of globs) {
    for (const file of await glob(pattern)) {
      set = set.with(basename(file), await readFile(file, 'utf8'));
    }
  }
  return set;
}
