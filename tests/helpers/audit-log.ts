import { USER } from '../../server/seed/accounts.js';
import { COMPANY } from '../../server/seed/ids.js';

/** A sys_log entry as the audit tests read it (snake_case, as stored). */
export interface LogRow {
  id?: number;
  user_id: number | null;
  username: string | null;
  company_id: number | null;
  record_table: string | null;
  record_id: string | null;
  action: string | null;
  request_id: string | null;
  method?: string | null;
  changes: Record<string, [unknown, unknown]> | null;
}

/** The seeded accounts an entry may name as its writer: user id and company id. */
export const WRITERS = {
  admin: { u: USER.admin, c: null },
  producer: { u: USER.producer, c: COMPANY.producer },
  disposer: { u: USER.disposer, c: COMPANY.disposer },
  logistics: { u: USER.logistics, c: COMPANY.logistics },
  collector: { u: USER.collector, c: COMPANY.collector },
} as const;
