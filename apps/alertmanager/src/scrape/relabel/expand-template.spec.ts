import { compileRe2 } from '../../re2';
import { ExpandTemplate } from './expand-template';

describe('ExpandTemplate', () => {
  // The default regex's expansion must be Go's, which the RE2 module's ReplaceAllString gives.
  const defaultRegex = compileRe2('^(?:(.*))$');

  it.each([
    '$1',
    '${1}',
    '$0-$1-$2',
    'prefix_${1}_suffix',
    '$$1',
    '$$$1',
    '$1x',
    '${1}x',
    '$name',
    '${name}',
    '$',
    'a$',
    '${',
    '${1',
    '${}',
    '$-1',
    '$01',
    '$00',
    '$999999999',
    '$1000000000',
    '$٣',
    '$é',
    'no reference',
    '',
  ])('expands %j for the default regex as Go does', (template) => {
    for (const text of ['', 'value', 'a$1b']) {
      expect(new ExpandTemplate(template).expandWhole(text)).toBe(
        defaultRegex.replaceAll(text, template),
      );
    }
  });

  it.each<[string, boolean]>([
    ['static', true],
    ['$$', true],
    ['a$', true],
    ['${', true],
    ['$1', false],
    ['x${name}', false],
  ])('tells whether %j is literal: %s', (template, literal) => {
    expect(new ExpandTemplate(template).isLiteral).toBe(literal);
  });
});
