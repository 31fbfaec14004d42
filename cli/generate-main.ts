import type { GenerateFlags } from './commands/generate.js';
import { runGenerate } from './commands/generate.js';
import { consoleOutput, EXIT, type ExitCode, type Output, reportFailure } from './errors.js';
import type { GenerateHandoff } from './generate-fast.js';

/**
 * A plain `wastegen generate` (no command parser): runs it and answers its exit code. The bin loads
 * this file's CommonJS build with the code cache; main() imports it for the same arguments otherwise.
 */
export async function runPlainGenerate(flags: GenerateFlags, output: Output = consoleOutput, handoff?: GenerateHandoff): Promise<number> {
  let exit: ExitCode = EXIT.ok;
  try {
    await runGenerate(flags, { output, setExit: (code) => (exit = code) }, handoff);
    return exit;
  } catch (e) {
    return reportFailure(e, output);
  }
}
