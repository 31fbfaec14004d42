import type { Command } from 'commander';
import type { GenerateFlags } from './commands/generate.js';
import register from './commands/index.js';
import { CliError, consoleOutput, EXIT, type ExitCode, type Output, printProblems } from './errors.js';

export { EXIT } from './errors.js';

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

/** The flags of `wastegen generate` that take a value, and those that do not. */
const GENERATE_VALUE_FLAGS = { '--cwd': 'cwd', '--config': 'config' } as const;
const GENERATE_SWITCHES = { '--quiet': ['quiet', true], '--json': ['json', true], '--no-cache': ['cache', false] } as const;

/**
 * `wastegen generate` is what editors and watch scripts run after every save, and loading commander
 * costs about as much as a run with nothing to do. When the arguments are `generate` and only its
 * own flags, each at most once, in the plain forms (`--cwd dir`, `--cwd=dir`, `--quiet`, `--json`,
 * `--no-cache`), they are read here, into what commander would give; anything else (help, another
 * command, an unknown, repeated or odd flag) returns undefined and goes through commander.
 */
export function plainGenerateFlags(argv: readonly string[]): GenerateFlags | undefined {
  const [command, ...rest] = argv.slice(2);
  if (command !== 'generate') return undefined;
  const flags: GenerateFlags = {};
  const seen = new Set<string>();
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (seen.has(name)) return undefined;
    seen.add(name);
    if (name in GENERATE_VALUE_FLAGS) {
      const value = eq > 0 ? arg.slice(eq + 1) : rest[++i];
      if (value === undefined || value.startsWith('-')) return undefined;
      flags[GENERATE_VALUE_FLAGS[name as keyof typeof GENERATE_VALUE_FLAGS]] = value;
    } else if (name in GENERATE_SWITCHES && eq < 0) {
      const [key, value] = GENERATE_SWITCHES[name as keyof typeof GENERATE_SWITCHES];
      (flags as Record<string, boolean>)[key] = value;
    } else return undefined;
  }
  return flags;
}

export async function main(argv: string[], output: Output = consoleOutput): Promise<number> {
  let exit: ExitCode = EXIT.ok;
  const ctx: CommandContext = { output, setExit: (code) => (exit = code) };
  try {
    const plain = plainGenerateFlags(argv);
    if (plain) {
      const { runGenerate } = await import('./commands/generate.js');
      await runGenerate(plain, ctx);
      return exit;
    }
    const program = await buildProgram(ctx, argv);
    await program.parseAsync(argv);
    return exit;
  } catch (e) {
    if (e instanceof CliError) {
      printProblems(e.problems, output);
      output.err(`wastegen: ${e.message}`);
      if (e.hint) output.err(`  hint: ${e.hint}`);
      return e.exitCode;
    }
    const { CommanderError } = await import('commander');
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    output.err(`wastegen: internal error, please report it with the command you ran:\n${e instanceof Error ? e.stack : String(e)}`);
    return 70;
  }
}
