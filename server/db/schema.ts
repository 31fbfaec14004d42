import type { ColumnType, Generated } from 'kysely';

/**
 * Database types. Each server module keeps its tables in its own file under tables/
 * and its own migration under migrations/; DB joins them.
 */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface CoreTables {
  sys_setting: { name: string; value: string };
  sys_dept: {
    id: Generated<number>;
    pid: number | null;
    name: string;
    code: string | null;
    sort: Generated<number>;
    enabled: Generated<boolean>;
    /** The company that owns the department; null: the platform's own. */
    company_id: number | null;
    create_time: Timestamp;
  };
  sys_role: {
    id: Generated<number>;
    name: string;
    level: Generated<number>;
    description: string | null;
    data_scope: Generated<string>;
    /** The company that owns the role; null: a platform role. */
    company_id: number | null;
    create_time: Timestamp;
  };
  sys_menu: {
    id: Generated<number>;
    pid: number | null;
    /** 0 directory, 1 menu (page), 2 button (permission only) */
    type: Generated<number>;
    title: string;
    name: string | null;
    component: string | null;
    path: string | null;
    icon: string | null;
    permission: string | null;
    sort: Generated<number>;
    hidden: Generated<boolean>;
    cache: Generated<boolean>;
    i_frame: Generated<boolean>;
    create_time: Timestamp;
  };
  sys_roles_menus: { role_id: number; menu_id: number };
  /** The departments a role of data scope 自定义 sees. */
  sys_roles_depts: { role_id: number; dept_id: number };
  company: {
    id: Generated<number>;
    name: string;
    /** companyType dictionary value */
    type: string;
    credit_code: string | null;
    /** comma-joined region codes */
    region: string | null;
    /** region labels joined by / */
    region_fmt: string | null;
    address: string | null;
    contact_name: string | null;
    contact_phone: string | null;
    dept_code: string | null;
    bci_id: string | null;
    status: Generated<number>;
    create_time: Timestamp;
  };
  sys_user: {
    id: Generated<number>;
    username: string;
    nick_name: string;
    phone: string | null;
    email: string | null;
    sex: string | null;
    dept_id: number | null;
    job: string | null;
    avatar: string | null;
    password: string;
    is_admin: Generated<boolean>;
    /** 0 normal, 1 disabled, 2 deleted */
    status: Generated<number>;
    /** The account's kind of company: logistics, collectionPoint or other. */
    permission: string | null;
    company_id: number | null;
    agreement_accepted: Generated<boolean>;
    pwd_reset_time: NullableTimestamp;
    create_time: Timestamp;
    update_time: Timestamp;
  };
  sys_users_roles: { user_id: number; role_id: number };
  sys_session: {
    id: string;
    user_id: number;
    ip: string | null;
    browser: string | null;
    create_time: Timestamp;
    last_seen: Timestamp;
    remember_until: NullableTimestamp;
  };
  sys_captcha: { uuid: string; code: string; expires_at: Timestamp };
  /** Failed passwords per username as typed (known or not) and client address; a lock holds on every instance. */
  sys_login_guard: {
    username: string;
    address: string;
    failures: Generated<number>;
    window_start: NullableTimestamp;
    locked_until: NullableTimestamp;
  };
  sys_log: {
    id: Generated<number>;
    user_id: number | null;
    username: string | null;
    description: string;
    log_type: Generated<string>;
    method: string | null;
    params: string | null;
    request_ip: string | null;
    address: string | null;
    browser: string | null;
    time: Generated<number>;
    exception_detail: string | null;
    create_time: Timestamp;
    /** The actor's company; with the record's table and key, the action and the changed fields (see db/audit.ts). */
    company_id: number | null;
    record_table: string | null;
    record_id: string | null;
    action: string | null;
    changes: Record<string, [unknown, unknown]> | null;
    request_id: string | null;
  };
}

import type { AccountTables } from './tables/accounts.js';
import type { BusinessTables } from './tables/business.js';
import type { DashboardTables } from './tables/dashboard.js';
import type { LowcodeTables } from './tables/lowcode.js';

export interface DB extends CoreTables, AccountTables, BusinessTables, LowcodeTables, DashboardTables {}
