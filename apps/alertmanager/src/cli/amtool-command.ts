import type { CommandSpec } from './flags/flag-spec';
import { ENABLE_FEATURE_FLAG } from './feature-flags';
import { SILENCE_COMMAND } from './silence-command-spec';
import { TEMPLATE_COMMAND } from './template-render.command';

const ALERT_QUERY: CommandSpec = {
  name: 'query',
  help: 'View and search through current alerts. A first matcher without an operator means alertname=<arg>; with no state flag only active alerts are shown.',
  flags: [
    { name: 'inhibited', short: 'i', kind: 'bool', help: 'Show inhibited alerts' },
    { name: 'silenced', short: 's', kind: 'bool', help: 'Show silenced alerts' },
    { name: 'active', short: 'a', kind: 'bool', help: 'Show active alerts' },
    { name: 'unprocessed', short: 'u', kind: 'bool', help: 'Show unprocessed alerts' },
    {
      name: 'receiver',
      short: 'r',
      kind: 'string',
      default: '',
      placeholder: 'RECEIVER',
      help: 'Show alerts matching receiver (Supports regex syntax)',
    },
  ],
  args: [{ name: 'matcher-groups', help: 'Query filter', variadic: true }],
};

const ALERT_ADD: CommandSpec = {
  name: 'add',
  help: 'Add a new alert. A first label without "=" is the value of alertname.',
  flags: [
    {
      name: 'generator-url',
      kind: 'string',
      default: '',
      help: 'Set the URL of the source that generated the alert',
    },
    {
      name: 'start',
      kind: 'string',
      default: '',
      help: 'Set when the alert should start. RFC3339 format 2006-01-02T15:04:05-07:00',
    },
    {
      name: 'end',
      kind: 'string',
      default: '',
      help: 'Set when the alert should should end. RFC3339 format 2006-01-02T15:04:05-07:00',
    },
    {
      name: 'annotation',
      kind: 'string',
      repeatable: true,
      help: 'Set an annotation to be included with the alert',
    },
  ],
  args: [{ name: 'labels', help: 'List of labels to be included with the alert', variadic: true }],
};

const CONFIG_ROUTES: CommandSpec = {
  name: 'routes',
  help: 'Prints alert routing tree. Routing is loaded from a local configuration file or a running Alertmanager configuration. Specifying --config.file takes precedence over --alertmanager.url.',
  defaultCommand: 'show',
  flags: [
    {
      name: 'config.file',
      kind: 'string',
      placeholder: 'CONFIG.FILE',
      help: 'Config file to be tested.',
    },
  ],
  commands: [
    { name: 'show', help: 'Prints alert routing tree.' },
    {
      name: 'test',
      help: 'Test alert routing: prints the receivers the labels resolve to, in routing tree order.',
      flags: [
        {
          name: 'verify.receivers',
          kind: 'string',
          default: '',
          help: 'Checks if specified receivers matches resolved receivers. The command fails if the labelset does not route to the specified receivers.',
        },
        { name: 'tree', kind: 'bool', help: 'Prints out matching routes tree.' },
      ],
      args: [
        {
          name: 'labels',
          help: 'List of labels to be tested against the configured routes.',
          variadic: true,
        },
      ],
    },
  ],
};

/** `redisx-amtool`'s command tree, with amtool's global flags, commands and arguments. */
export const amtoolCommand: CommandSpec = {
  name: 'redisx-amtool',
  help: 'View and modify the current Alertmanager state.',
  flags: [
    {
      name: 'date.format',
      kind: 'string',
      default: '2006-01-02 15:04:05 MST',
      help: 'Format of date output.',
    },
    { name: 'verbose', short: 'v', kind: 'bool', help: 'Verbose running information.' },
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
    {
      name: 'http.config.file',
      kind: 'string',
      placeholder: '<filename>',
      help: 'HTTP client configuration file for amtool to connect to Alertmanager.',
    },
    {
      name: 'version-check',
      kind: 'bool',
      default: true,
      help: 'Check alertmanager version. Use --no-version-check to disable. (Accepted for compatibility; no check is made.)',
    },
    { name: 'version', kind: 'bool', exits: true, help: 'Show application version.' },
  ],
  commands: [
    {
      name: 'alert',
      help: 'Add or query alerts.',
      defaultCommand: 'query',
      commands: [ALERT_QUERY, ALERT_ADD],
    },
    {
      name: 'check-config',
      help: 'Validate alertmanager config files. Will validate the syntax and schema for alertmanager config file and associated templates. Non existing templates will not trigger errors.',
      args: [
        { name: 'check-files', help: 'Files to be validated.', variadic: true, required: true },
      ],
    },
    {
      name: 'config',
      help: 'View the routing configuration.',
      defaultCommand: 'routes',
      commands: [CONFIG_ROUTES],
    },
    {
      name: 'check',
      help: 'Check Prometheus rule files, as promtool does.',
      commands: [
        {
          name: 'rules',
          help: 'Check if the rule files are valid or not.',
          flags: [
            {
              name: 'lint',
              kind: 'enum',
              values: ['all', 'duplicate-rules', 'none'],
              default: 'duplicate-rules',
              help: 'Linting checks to apply. Available options are: all, duplicate-rules, none. Use --lint=none to disable linting',
            },
            { name: 'lint-fatal', kind: 'bool', help: 'Make lint errors exit with exit code 3.' },
          ],
          args: [
            {
              name: 'rule-files',
              help: 'The rule files to check.',
              variadic: true,
              required: true,
            },
          ],
        },
      ],
    },
    {
      name: 'test',
      help: 'Unit test Prometheus rules, as promtool does.',
      commands: [
        {
          name: 'rules',
          help: 'Unit tests for rules.',
          flags: [ENABLE_FEATURE_FLAG],
          args: [
            {
              name: 'test-rule-file',
              help: 'The unit test file.',
              variadic: true,
              required: true,
            },
          ],
        },
      ],
    },
    SILENCE_COMMAND,
    TEMPLATE_COMMAND,
  ],
};
