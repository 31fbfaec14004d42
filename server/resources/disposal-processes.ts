import { disposalProcesses } from '../../src/contract/disposal-processes.js';
import type { App } from '../app.js';
import type { AppContext } from '../context.js';
import { badRequest } from '../errors.js';
import { isDbId } from '../lib/sql.js';
import { registerResource } from './register.js';

/** Disposal processes: the top level, and those under one. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  // The disposal processes under one parent (null: the top level), in their order, as one whole page.
  const processesUnder = async (pid: number | null) => {
    const q = db.selectFrom('disposal_process').select(['id', 'name', 'code', 'pid']);
    const content = await (pid === null ? q.where('pid', 'is', null) : q.where('pid', '=', pid)).orderBy('sort').orderBy('id').execute();
    return { content, totalElements: content.length };
  };

  registerResource(app, disposalProcesses, {
    primary: () => processesUnder(null),
    under: async (req) => {
      const raw = req.query.processID?.trim();
      const processId = Number(raw);
      if (!raw || !isDbId(processId)) throw badRequest('PROCESS_REQUIRED');
      return processesUnder(processId);
    },
  });
}
