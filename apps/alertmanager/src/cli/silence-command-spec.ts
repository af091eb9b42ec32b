import type { CommandSpec, FlagSpec } from './flags/flag-spec';

const TIME_HELP = 'RFC3339 format 2006-01-02T15:04:05-07:00';
const START: FlagSpec = {
  name: 'start',
  kind: 'string',
  default: '',
  placeholder: 'START',
  help: `Set when the silence should start. ${TIME_HELP}`,
};
const END: FlagSpec = {
  name: 'end',
  kind: 'string',
  default: '',
  placeholder: 'END',
  help: `Set when the silence should end (overwrites duration). ${TIME_HELP}`,
};
const COMMENT: FlagSpec = {
  name: 'comment',
  short: 'c',
  kind: 'string',
  default: '',
  placeholder: 'COMMENT',
  help: 'A comment to help describe the silence',
};
const QUIET: FlagSpec = { name: 'quiet', short: 'q', kind: 'bool', help: 'Only show silence ids' };

/** `amtool silence` and its subcommands, with amtool's flags and arguments. */
export const SILENCE_COMMAND: CommandSpec = {
  name: 'silence',
  help: 'Add, expire or view silences. For more information and additional flags see query help',
  defaultCommand: 'query',
  commands: [
    {
      name: 'add',
      help: 'Add a new alertmanager silence. A first matcher without an operator means alertname=<arg>.',
      flags: [
        {
          name: 'author',
          short: 'a',
          kind: 'string',
          default: '',
          placeholder: 'AUTHOR',
          help: 'Username for CreatedBy field (default: the current user)',
        },
        {
          name: 'require-comment',
          kind: 'bool',
          default: true,
          help: 'Require comment to be set (the config file may turn this off)',
        },
        {
          name: 'duration',
          short: 'd',
          kind: 'string',
          default: '1h',
          help: 'Duration of silence',
        },
        START,
        END,
        COMMENT,
      ],
      args: [{ name: 'matcher-groups', help: 'Query filter', variadic: true }],
    },
    {
      name: 'expire',
      help: 'expire an alertmanager silence',
      args: [{ name: 'silence-ids', help: 'Ids of silences to expire', variadic: true }],
    },
    {
      name: 'import',
      help: 'Import silences from a JSON file as written by `silence query -o json` (stdin when no file is given).',
      flags: [
        {
          name: 'force',
          short: 'f',
          kind: 'bool',
          help: 'Force adding new silences even if it already exists',
        },
        {
          name: 'worker',
          short: 'w',
          kind: 'string',
          default: '8',
          help: 'Number of concurrent workers to use for import',
        },
      ],
      args: [{ name: 'input-file', help: 'JSON file with silences' }],
    },
    {
      name: 'query',
      help: 'Query Alertmanager silences. A first matcher without an operator means alertname=<arg>; without --expired, expired silences are hidden.',
      flags: [
        { name: 'expired', kind: 'bool', help: 'Show expired silences instead of active' },
        QUIET,
        {
          name: 'created-by',
          kind: 'string',
          default: '',
          placeholder: 'CREATED-BY',
          help: 'Show silences that belong to this creator',
        },
        {
          name: 'within',
          kind: 'string',
          default: '',
          placeholder: 'WITHIN',
          help: 'Show silences that will expire or have expired within a duration',
        },
      ],
      args: [{ name: 'matcher-groups', help: 'Query filter', variadic: true }],
    },
    {
      name: 'update',
      help: 'Update silences',
      flags: [
        QUIET,
        {
          name: 'duration',
          short: 'd',
          kind: 'string',
          default: '',
          placeholder: 'DURATION',
          help: 'Duration of silence',
        },
        START,
        END,
        COMMENT,
      ],
      args: [{ name: 'update-ids', help: 'Silence IDs to update', variadic: true }],
    },
  ],
};
