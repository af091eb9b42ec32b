import { ConfigError, describeConfig, loadConfigFile, type AlertmanagerConfig } from '../config';
import { checkConfigTemplates } from '../receivers';

/**
 * The template check of a valid configuration. amtool prints its line when the configuration
 * lists templates; ours also renders every templated receiver field against sample data, and
 * prints the line whenever that fails.
 */
export type TemplateValidator = (config: AlertmanagerConfig) => Promise<void>;

/**
 * `amtool check-config`: validates each file and prints exactly what amtool prints. Returns
 * the exit code: 1 when any file failed, else 0.
 */
export async function runCheckConfig(
  files: string[],
  out: (line: string) => void,
  validateTemplates: TemplateValidator = checkConfigTemplates,
): Promise<number> {
  let failed = 0;
  for (const file of files) {
    try {
      const { config } = await loadConfigFile(file);
      out(`Checking '${file}'  SUCCESS`);
      out('Found:');
      describeConfig(config).forEach((line) => out(line));
      failed += await checkTemplates(config, validateTemplates, out);
    } catch (err) {
      out(`Checking '${file}'  FAILED: ${errorText(err)}`);
      failed++;
    }
    out('');
  }
  if (failed > 0) out(`amtool: error: failed to validate ${failed} file(s)`);
  return failed > 0 ? 1 : 0;
}

async function checkTemplates(
  config: AlertmanagerConfig,
  validate: TemplateValidator,
  out: (line: string) => void,
): Promise<number> {
  try {
    await validate(config);
    if (config.templates.length > 0) out('  SUCCESS');
    return 0;
  } catch (err) {
    out(`  FAILED: ${errorText(err)}`);
    return 1;
  }
}

function errorText(err: unknown): string {
  return err instanceof ConfigError || err instanceof Error ? err.message : String(err);
}
