import { describeConfig } from './describe-config';
import { parseConfig } from './parse-config';

describe('describeConfig', () => {
  it.each([
    ['route: {receiver: a}\nreceivers: [{name: a}]\n', [0, 1, 0]],
    [
      'route: {receiver: a}\nreceivers: [{name: a}, {name: b}]\ninhibit_rules: [{equal: [x]}, {}]\ntemplates: [a.tmpl, "b/*.tmpl", c.tmpl]\n',
      [2, 2, 3],
    ],
  ])('summarises %j', (text, [inhibit, receivers, templates]) => {
    expect(describeConfig(parseConfig(text, 'am.yml'))).toEqual([
      ' - global config',
      ' - route',
      ` - ${inhibit} inhibit rules`,
      ` - ${receivers} receivers`,
      ` - ${templates} templates`,
    ]);
  });
});
