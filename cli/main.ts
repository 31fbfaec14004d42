import type { Command } from 'commander';
import register from './commands/index.js';
import { consoleOutput, EXIT, type ExitCode, type Output, reportFailure } from './errors.js';
import type { GenerateHandoff } from './generate-fast.js';
import { plainGenerateFlags } from './generate-flags.js';

export { EXIT } from './errors.js';
export { plainGenerateFlags } from './generate-flags.js';

/**
 * Each command's action stores its exit code here; commander itself only parses. Expected failures
 * are CliErrors (message, hint, problems, exit code); anything else is a bug and is reported as one.
 */
export interface CommandContext {
  output: Output;
  setExit(code: ExitCode): void;
}

/**
 * The program with its commands; given the arguments, only the command they run is loaded (the
 * first word not starting with `-`; help, a typo or no command load them all).
 */
export async function buildProgram(ctx: CommandContext, argv: readonly string[] = []): Promise<Command> {
  const { Command } = await import('commander');
  const program = new Command('wastegen')
    .description('Compiles wastegen view and screen definitions into typed React pages, zod schemas and routes.')
    .version('0.1.0')
    .exitOverride()
    .configureOutput({ writeOut: (s) => ctx.output.out(s.replace(/\n$/, '')), writeErr: (s) => ctx.output.err(s.replace(/\n$/, '')) })
    .showHelpAfterError('(run `wastegen --help` for the commands and their examples)')
    .addHelpText(
      'after',
      `
Examples:
  $ wastegen pull --server http://127.0.0.1:8080 --token "$WASTEGEN_TOKEN"
  $ wastegen generate
  $ wastegen check            # in CI, for pull requests
  $ wastegen pull && wastegen build

Exit codes: 0 ok, 1 invalid or stale, 2 usage, 3 network or auth.`,
    );
  await register(
    program,
    ctx,
    argv.slice(2).find((a) => !a.startsWith('-')),
  );
  return program;
}

/**
 * `handoff`: what the bin's first try read for these arguments (a plain generate with work to do),
 * used instead of reading it again.
 */
export async function main(argv: string[], output: Output = consoleOutput, handoff?: GenerateHandoff): Promise<number> {
  const plain = plainGenerateFlags(argv);
  if (plain) {
    const { runPlainGenerate } = await import('./generate-main.js');
    return runPlainGenerate(plain, output, handoff?.argv === argv ? handoff : undefined);
  }
  let exit: ExitCode = EXIT.ok;
  const ctx: CommandContext = { output, setExit: (code) => (exit = code) };
  try {
    const program = await buildProgram(ctx, argv);
    await program.parseAsync(argv);
    return exit;
  } catch (e) {
    const { CommanderError } = await import('commander');
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    return reportFailure(e, output);
  }
}
