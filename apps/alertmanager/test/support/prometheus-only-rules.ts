import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RULES = join(__dirname, '..', '..', 'config', 'rules');

/** A `{{ with exemplars ... }}` clause, up to its two `{{ end }}`s, as the bundled rules write it. */
const EXEMPLARS_CLAUSE = /\{\{ with exemplars .*?\{\{ end \}\}\{\{ end \}\}/g;

/**
 * A directory holding the bundled rules (`redisx.rules.yml`, its tests) as Prometheus can read
 * them: without the clauses that call this server's `exemplars` template function, which
 * `promtool` does not know. Everything else, what the comparisons with upstream are about, stays.
 */
export function prometheusOnlyRules(): string {
  const dir = mkdtempSync(join(tmpdir(), 'redisx-rules-'));
  const rules = readFileSync(join(RULES, 'redisx.rules.yml'), 'utf8');
  writeFileSync(join(dir, 'redisx.rules.yml'), rules.replace(EXEMPLARS_CLAUSE, ''));
  copyFileSync(join(RULES, 'redisx.rules.test.yml'), join(dir, 'redisx.rules.test.yml'));
  return dir;
}
