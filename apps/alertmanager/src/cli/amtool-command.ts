import type { CommandSpec } from './flags/flag-spec';

/** `redisx-amtool`'s command tree, with amtool's global flags, commands and arguments. */
export const amtoolCommand: CommandSpec = {
  name: 'redisx-amtool',
  help: 'View and modify the current Alertmanager state.',
  flags: [
    {
      name: 'alertmanager.url',
      kind: 'string',
      default: 'http://localhost:9093/',
      placeholder: 'URL',
      help: 'Alertmanager to talk to.',
    },
    {
      name: 'output',
      short: 'o',
      kind: 'enum',
      values: ['simple', 'extended', 'json'],
      default: 'simple',
      help: 'Output formatter.',
    },
    {
      name: 'timeout',
      kind: 'string',
      default: '30s',
      placeholder: 'DURATION',
      help: 'Timeout for the executed command.',
    },
    { name: 'verbose', short: 'v', kind: 'bool', help: 'Verbose running information.' },
    { name: 'version', kind: 'bool', exits: true, help: 'Show application version.' },
  ],
  commands: [
    {
      name: 'check-config',
      help: 'Validate alertmanager config files. Will validate the syntax and schema for alertmanager config file and associated templates. Non existing templates will not trigger errors.',
      args: [
        { name: 'check-files', help: 'Files to be validated.', variadic: true, required: true },
      ],
    },
  ],
};
