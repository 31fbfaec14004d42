/** Disposal processes: the top level and the processes under one, each list whole and in its order. */
import { z } from 'zod';
import { call, resource } from './define.js';
import { pageOf } from './fields.js';
import { pageFields } from './paging.js';

export const disposalProcess = z.object({ id: z.number(), name: z.string(), code: z.string(), pid: z.number().nullable() });

export const disposalProcesses = resource('disposal-processes', '处置方式', {
  primary: call('GET', '/api/getUserProcessPrimary', '一级处置方式', 'session', {
    query: z.object(pageFields),
    answer: pageOf(disposalProcess),
    errors: [],
  }),
  under: call('GET', '/api/getUserProcess', '某处置方式下的处置方式', 'session', {
    query: z.object({ processID: z.string().optional(), ...pageFields }),
    answer: pageOf(disposalProcess),
    errors: ['PROCESS_REQUIRED'],
    example: { query: { processID: '1' } },
  }),
});
