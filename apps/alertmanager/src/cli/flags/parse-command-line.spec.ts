import { CommandLineError, type CommandSpec } from './flag-spec';
import { parseCommandLine } from './parse-command-line';

const app: CommandSpec = {
  name: 'tool',
  help: 'A test tool.',
  flags: [
    { name: 'alertmanager.url', kind: 'string', help: 'URL', default: 'http://localhost:9093/' },
    {
      name: 'output',
      short: 'o',
      kind: 'enum',
      values: ['simple', 'json'],
      default: 'simple',
      help: 'o',
    },
    { name: 'verbose', short: 'v', kind: 'bool', help: 'v' },
  ],
  commands: [
    {
      name: 'silence',
      help: 'silences',
      defaultCommand: 'query',
      commands: [
        {
          name: 'add',
          help: 'add',
          flags: [
            { name: 'comment', short: 'c', kind: 'string', help: 'c' },
            { name: 'annotation', kind: 'string', repeatable: true, help: 'a' },
          ],
          args: [{ name: 'matchers', help: 'm', variadic: true }],
        },
        { name: 'query', help: 'query', args: [{ name: 'matchers', help: 'm', variadic: true }] },
        {
          name: 'expire',
          help: 'expire',
          args: [{ name: 'ids', help: 'i', variadic: true, required: true }],
        },
      ],
    },
    { name: 'check-config', help: 'check', args: [{ name: 'files', help: 'f', variadic: true }] },
  ],
};

describe('parseCommandLine', () => {
  it.each([
    [['check-config', 'a.yml', 'b.yml'], ['check-config'], { files: ['a.yml', 'b.yml'] }, {}],
    [
      ['silence', 'add', 'alertname=X', '--comment=hi', 'job=a'],
      ['silence', 'add'],
      { matchers: ['alertname=X', 'job=a'] },
      { comment: 'hi' },
    ],
    [
      ['silence', 'add', '-c', 'hi', 'a=b'],
      ['silence', 'add'],
      { matchers: ['a=b'] },
      { comment: 'hi' },
    ],
    [['silence', 'add', '-chi'], ['silence', 'add'], { matchers: [] }, { comment: 'hi' }],
    [['silence'], ['silence', 'query'], { matchers: [] }, {}],
    [
      ['--alertmanager.url', 'http://127.0.0.1:1/', 'silence', 'query', '-o', 'json'],
      ['silence', 'query'],
      { matchers: [] },
      { 'alertmanager.url': 'http://127.0.0.1:1/', output: 'json' },
    ],
    [
      ['silence', 'add', '--annotation=a=1', '--annotation', 'b=2'],
      ['silence', 'add'],
      { matchers: [] },
      { annotation: ['a=1', 'b=2'] },
    ],
    [['check-config', '--', '--weird.yml'], ['check-config'], { files: ['--weird.yml'] }, {}],
    [['-v', '--no-verbose', 'check-config'], ['check-config'], { files: [] }, { verbose: false }],
  ])('%j', (argv, command, args, flags) => {
    const parsed = parseCommandLine(app, argv);
    expect(parsed.command).toEqual(command);
    expect(parsed.args).toEqual(args);
    expect(parsed.flags).toMatchObject(flags);
  });

  it('fills defaults of every command on the path', () => {
    const parsed = parseCommandLine(app, ['silence', 'add']);
    expect(parsed.flags).toMatchObject({
      'alertmanager.url': 'http://localhost:9093/',
      output: 'simple',
      verbose: false,
      annotation: [],
    });
  });

  it.each([
    [['--nope'], "unknown long flag '--nope'"],
    [['-x'], "unknown short flag '-x'"],
    [['-o', 'yaml', 'check-config'], "enum value must be one of simple,json, got 'yaml'"],
    [['check-config', '--alertmanager.url'], "expected argument for flag '--alertmanager.url'"],
    [['silence', 'expire'], "required argument 'ids' not provided"],
    [['frobnicate'], 'expected command but got "frobnicate"'],
    [
      ['silence', 'add', '--comment=x', '--output=json', '--verbose=maybe'],
      'strconv.ParseBool: parsing "maybe": invalid syntax',
    ],
  ])('rejects %j', (argv, message) => {
    expect(() => parseCommandLine(app, argv)).toThrow(new CommandLineError(message));
  });

  it('reports --help without requiring arguments', () => {
    const parsed = parseCommandLine(app, ['silence', 'expire', '--help']);
    expect(parsed).toMatchObject({ help: true, command: ['silence', 'expire'] });
  });
});
