import type { GenerateFlags } from './commands/generate.js';

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
