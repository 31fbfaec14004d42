import { Command, CommanderError } from 'commander';

/** Exit codes: 0 ok; 1 invalid or stale; 2 usage; 3 network or auth. */
export const EXIT = { ok: 0, invalid: 1, usage: 2, network: 3 } as const;

export function buildProgram(): Command {
  return new Command('wastegen')
    .description('Compiles wastegen view and screen definitions into typed React pages, zod schemas and routes.')
    .version('0.1.0')
    .exitOverride()
    .showHelpAfterError();
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return EXIT.ok;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    console.error(e instanceof Error ? e.message : String(e));
    return EXIT.invalid;
  }
}
