import SERVER_PROCESS from '../../server/process-options.json' with { type: 'json' };

/**
 * Node options for a bench's server process: the server's own, as `npm start` runs it, then
 * BENCH_SERVER_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it), which come later and so win.
 */
export const benchServerArgs = (): string[] => [
  ...SERVER_PROCESS.args,
  ...(process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean),
];

/** A bench server's environment: the server's own defaults (as `npm start` sets them), then `env`, which wins. */
export const benchServerEnv = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({ ...SERVER_PROCESS.env, ...env });
