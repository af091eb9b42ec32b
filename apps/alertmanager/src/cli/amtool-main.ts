import { versionText } from '../build/build-info';
import { runAlertAdd } from './alert-add.command';
import { runAlertQuery } from './alert-query.command';
import { AmtoolError } from './amtool-error';
import { amtoolConfigFiles, readAmtoolConfig, withFlagDefaults } from './amtool-config-file';
import { amtoolCommand } from './amtool-command';
import type { AmtoolTarget } from './amtool-http';
import { amtoolTarget, checkExistingFile } from './amtool-target';
import { runCheckConfig } from './check-config.command';
import { runCheckRules } from './check-rules.command';
import { loadRoutingConfig, runRoutesShow, runRoutesTest } from './config-routes.command';
import { CommandLineError, type ParsedCommandLine } from './flags/flag-spec';
import { parseCommandLine } from './flags/parse-command-line';
import { renderUsage } from './flags/render-usage';
import { runSilenceCommand } from './silence-commands';
import { runTemplateRender } from './template-render.command';
import { runTestRules } from './test-rules.command';
import { enabledFeatures } from './feature-flags';

const PROGRAM = 'redisx-amtool';

const str = (parsed: ParsedCommandLine, name: string) =>
  (parsed.flags[name] as string | undefined) ?? '';
const bool = (parsed: ParsedCommandLine, name: string) => parsed.flags[name] === true;
const list = (value: unknown) => (value as string[] | undefined) ?? [];

function target(parsed: ParsedCommandLine): Promise<AmtoolTarget> {
  return amtoolTarget({
    url: str(parsed, 'alertmanager.url'),
    timeout: str(parsed, 'timeout'),
    httpConfigFile: str(parsed, 'http.config.file'),
  });
}

/**
 * Entry point of the `redisx-amtool` binary; resolves with the process exit code. Flag defaults
 * come from amtool's config files (see {@link amtoolConfigFiles}); flags given here win.
 */
export async function run(
  argv: string[],
  out: (line: string) => void,
  err: (line: string) => void = out,
  configFiles: readonly string[] = amtoolConfigFiles(),
): Promise<number> {
  const command = withFlagDefaults(amtoolCommand, readAmtoolConfig(configFiles));
  const parsed = parseCommandLine(command, argv.length === 0 ? ['--help'] : argv);
  if (parsed.help) {
    out(renderUsage(PROGRAM, command, parsed.command));
    return 0;
  }
  if (parsed.flags['version']) {
    out(versionText(PROGRAM).trimEnd());
    return 0;
  }
  if (str(parsed, 'http.config.file')) checkExistingFile(str(parsed, 'http.config.file'));
  if (parsed.command[0] === 'silence') {
    return runSilenceCommand(parsed.command[1], parsed, await target(parsed), out, err);
  }
  switch (parsed.command.join(' ')) {
    case 'check-config':
      return runCheckConfig(parsed.args['check-files'] as string[], out);
    case 'check rules':
      return runCheckRules(
        parsed.args['rule-files'] as string[],
        { lint: str(parsed, 'lint'), lintFatal: bool(parsed, 'lint-fatal') },
        out,
        err,
      );
    case 'test rules':
      return runTestRules(
        parsed.args['test-rule-file'] as string[],
        out,
        err,
        enabledFeatures(parsed),
      );
    case 'alert query':
      return runAlertQuery(
        await target(parsed),
        {
          matchers: list(parsed.args['matcher-groups']),
          active: bool(parsed, 'active'),
          silenced: bool(parsed, 'silenced'),
          inhibited: bool(parsed, 'inhibited'),
          unprocessed: bool(parsed, 'unprocessed'),
          receiver: str(parsed, 'receiver'),
          output: str(parsed, 'output'),
          dateFormat: str(parsed, 'date.format'),
        },
        out,
      );
    case 'alert add':
      return runAlertAdd(await target(parsed), {
        labels: list(parsed.args['labels']),
        annotations: list(parsed.flags['annotation']),
        start: str(parsed, 'start'),
        end: str(parsed, 'end'),
        generatorURL: str(parsed, 'generator-url'),
      });
    case 'config routes show':
      return runRoutesShow(
        await loadRoutingConfig(await target(parsed), str(parsed, 'config.file')),
        out,
      );
    case 'config routes test':
      return runRoutesTest(
        await loadRoutingConfig(await target(parsed), str(parsed, 'config.file')),
        {
          labels: list(parsed.args['labels']),
          tree: bool(parsed, 'tree'),
          verifyReceivers: str(parsed, 'verify.receivers'),
        },
        out,
      );
    case 'template render':
      return runTemplateRender(
        {
          globs: list(parsed.flags['template.glob']),
          text: str(parsed, 'template.text'),
          type: str(parsed, 'template.type') as 'text' | 'html',
          dataFile: str(parsed, 'template.data'),
          now: Date.now(),
        },
        out,
      );
    default:
      throw new CommandLineError(`unknown command "${parsed.command.join(' ')}"`);
  }
}

/** Runs the CLI against the process's own streams and exit code. */
export async function main(argv: string[]): Promise<void> {
  // A reader that stops early (`| head`) closes the pipe: stop quietly, as a Go binary does.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  try {
    process.exitCode = await run(
      argv,
      (line) => process.stdout.write(`${line}\n`),
      (line) => process.stderr.write(`${line}\n`),
    );
  } catch (error) {
    if (error instanceof AmtoolError) {
      process.stderr.write(`${PROGRAM}: error: ${error.message}\n`);
    } else if (error instanceof CommandLineError) {
      process.stderr.write(`${PROGRAM}: error: ${error.message}, try --help\n`);
    } else {
      throw error;
    }
    process.exitCode = 1;
  }
}
