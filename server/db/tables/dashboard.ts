// Tables of the dashboard module (migration in ../migrations/0006_dashboard.ts).
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from '../schema.js';

/** `date` columns: read them through to_char in SQL (drivers differ in how they parse dates). */
type DateColumn = ColumnType<unknown, string | undefined, string>;
/** numeric columns arrive as numbers (both drivers are set up so) and may be written as text. */
type Numeric = ColumnType<number, number | string, number | string>;

export interface DashboardTables {
  /** Running sums of business records; kept by triggers (server/lib/dashboard-facts.ts), never written by hand. */
  dash_fact: {
    source: string;
    company_id: number;
    role: string;
    warehouse_id: Generated<number>;
    status: Generated<string>;
    category: Generated<string>;
    day: DateColumn;
    day2: DateColumn;
    n: Generated<number>;
    qty: Generated<Numeric>;
    amount: Generated<Numeric>;
    amount2: Generated<Numeric>;
  };
  /** dash_fact summed over warehouse and category; kept by the same triggers, never written by hand. */
  dash_fact_total: Omit<DashboardTables['dash_fact'], 'warehouse_id' | 'category'>;
  dash_source: { source: string; table_name: string; version: string; installed_at: Timestamp };
  bulletin: {
    id: Generated<number>;
    title: string;
    content: string;
    /** 10 published, 0 draft */
    status: Generated<number>;
    views: Generated<number>;
    create_by: string | null;
    create_time: Timestamp;
    update_time: Timestamp;
  };
  inventory_config: {
    id: Generated<number>;
    company_id: number;
    warehouse_id: number | null;
    waste_category: string | null;
    max_quantity: Numeric;
    remark: string | null;
    create_by: string | null;
    create_time: Timestamp;
  };
  dash_target: { name: string; year: number; value: Numeric };
  disposal_order_manual: {
    record_id: number;
    view_id: number;
    /** The manual order form as submitted and checked (JSON). */
    payload: ColumnType<unknown, string, string>;
    create_by: string | null;
    create_time: Timestamp;
  };
  disposal_testing_application: {
    id: Generated<number>;
    applicant_company_id: number | null;
    disposer_company_id: number;
    waste_category_code: string;
    waste_name: string;
    quantity: Numeric | null;
    sample_count: Generated<number>;
    linkman: string;
    phone: string;
    remark: string | null;
    /** 0 submitted, 1 accepted, 2 tested, 3 refused */
    status: Generated<number>;
    user_id: number | null;
    create_time: Timestamp;
  };
  materials_code: {
    id: Generated<number>;
    code_num: string;
    operate_dept: string | null;
    user_id: number | null;
    create_time: Timestamp;
  };
}
