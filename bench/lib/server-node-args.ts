import SERVER_NODE_ARGS from '../../server/node-args.json' with { type: 'json' };

/**
 * Node options for a bench's server process: the server's own, as `npm start` runs it, then
 * BENCH_SERVER_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it), which come later and so win.
 */
export const benchServerArgs = (): string[] => [...SERVER_NODE_ARGS, ...(process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean)];
