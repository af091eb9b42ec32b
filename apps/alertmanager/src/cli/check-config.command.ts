import { ConfigError, describeConfig, loadConfigFile } from '../config';

/** Optional template check, run like amtool does when a valid config lists templates. */
export type TemplateValidator = (globs: readonly string[]) => Promise<void>;

/**
 * `amtool check-config`: validates each file and prints exactly what amtool prints. Returns
 * the exit code: 1 when any file failed, else 0.
 */
export async function runCheckConfig(
  files: string[],
  out: (line: string) => void,
  validateTemplates?: TemplateValidator,
): Promise<number> {
  let failed = 0;
  for (const file of files) {
    try {
      const { config } = await loadConfigFile(file);
      out(`Checking '${file}'  SUCCESS`);
      out('Found:');
      describeConfig(config).forEach((line) => out(line));
      if (validateTemplates && config.templates.length > 0) {
        failed += await checkTemplates(config.templates, validateTemplates, out);
      }
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
  globs: readonly string[],
  validate: TemplateValidator,
  out: (line: string) => void,
): Promise<number> {
  try {
    await validate(globs);
    out('  SUCCESS');
    return 0;
  } catch (err) {
    out(`  FAILED: ${errorText(err)}`);
    return 1;
  }
}

function errorText(err: unknown): string {
  return err instanceof ConfigError || err instanceof Error ? err.message : String(err);
}
