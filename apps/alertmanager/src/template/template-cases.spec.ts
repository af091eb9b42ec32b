import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadTemplates } from './load-templates';
import { caseData } from './testing/case-data';

/** One case: a template text, its data, and the output or the error message it must give. */
interface Case {
  name: string;
  template: string;
  data?: unknown;
  defs?: string;
  mode?: 'text' | 'html';
  expected?: string;
  error?: string;
}

const dir = join(__dirname, 'testdata');
const cases = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .flatMap((file) =>
    (JSON.parse(readFileSync(join(dir, file), 'utf8')) as Case[]).map(
      (c) => [file, c.name, c] as const,
    ),
  );

it.each(cases)('%s: %s', async (_file, _name, c) => {
  const set = (await loadTemplates([])).with('defs.tmpl', c.defs ?? '');
  const run = () =>
    set.render(c.template, caseData(c.data ?? null), {
      now: Date.UTC(2024, 0, 1, 1),
      mode: c.mode,
    });
  if (c.error !== undefined) expect(run).toThrow(c.error);
  else expect(run()).toBe(c.expected);
});
