import { versionText } from '../build/build-info';
import { amtoolCommand } from './amtool-command';
import { runCheckConfig } from './check-config.command';
import { CommandLineError } from './flags/flag-spec';
import { parseCommandLine } from './flags/parse-command-line';
import { renderUsage } from './flags/render-usage';

const PROGRAM = 'redisx-amtool';

/** Entry point of the `redisx-amtool` binary; resolves with the process exit code. */
export async function run(argv: string[], out: (line: string) => void): Promise<number> {
  const parsed = parseCommandLine(amtoolCommand, argv.length === 0 ? ['--help'] : argv);
  if (parsed.help) {
    out(renderUsage(PROGRAM, amtoolCommand, parsed.command));
    return 0;
  }
  if (parsed.flags['version']) {
    out(versionText(PROGRAM).trimEnd());
    return 0;
  }
  switch (parsed.command.join(' ')) {
    case 'check-config':
      return runCheckConfig(parsed.args['check-files'] as string[], out);
    default:
      throw new CommandLineError(`unknown command "${parsed.command.join(' ')}"`);
  }
}

/** Runs the CLI against the process's own streams and exit code. */
export async function main(argv: string[]): Promise<void> {
  try {
    process.exitCode = await run(argv, (line) => process.stdout.write(`${line}\n`));
  } catch (error) {
    if (!(error instanceof CommandLineError)) throw error;
    process.stderr.write(`${PROGRAM}: error: ${error.message}, try --help\n`);
    process.exitCode = 1;
  }
}
