import type { Generated } from 'kysely';
import type { Timestamp } from '../schema.js';

// Tables of the accounts module (migration in ../migrations/0002_accounts.ts).
export interface AccountTables {
  sys_dict: {
    id: Generated<number>;
    name: string;
    description: string | null;
    create_time: Timestamp;
  };
  sys_dict_detail: {
    id: Generated<number>;
    dict_id: number;
    label: string;
    value: string;
    /** Tag colour: success, info, warning, danger or '' */
    type: Generated<string>;
    sort: Generated<number>;
    create_time: Timestamp;
  };
  sys_email_code: {
    id: Generated<number>;
    user_id: number;
    email: string;
    code: string;
    expires_at: Timestamp;
    /** Spent by an attempt, right or wrong; the row stays so the resend cooldown still sees it. */
    used: Generated<boolean>;
    create_time: Timestamp;
  };
}
