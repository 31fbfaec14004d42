// Tables of the business module (migration in ../migrations/0003_business.ts).
import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from '../schema.js';

/** `date` columns: read them through to_char in SQL (drivers differ in how they parse dates). */
type DateColumn = ColumnType<unknown, string, string>;
/** The row of a SQL view: every column selected, never inserted or updated. */
type ViewRow<T> = { [K in keyof T]: ColumnType<T[K], never, never> };

export interface BusinessTables {
  region: {
    code: string;
    parent_code: string | null;
    name: string;
    /** 1 province, 2 city, 3 district */
    level: number;
  };
  file_record: {
    id: Generated<number>;
    /** Opaque path relative to the files folder, e.g. 2026/11/ab12cd.pdf */
    file_path: string;
    file_name: string;
    column_name: string | null;
    content_type: string;
    size: number;
    user_id: number | null;
    /** The company the file was uploaded in (its uploader's then): the company that reads it, wherever the account goes later. */
    company_id: number | null;
    /** An image its uploader asked to be shown without a session (big-screen backgrounds, rich-text pictures). */
    open: Generated<boolean>;
    create_time: Timestamp;
  };
  sys_message: {
    id: Generated<number>;
    user_id: number;
    title: string;
    content: string;
    have_read: Generated<boolean>;
    create_time: Timestamp;
  };
  leave_message: {
    id: Generated<number>;
    /** recipient */
    user_id: number;
    sender_id: number | null;
    sender_name: string;
    content: string;
    have_read: Generated<boolean>;
    create_time: Timestamp;
  };
  company_application: {
    id: Generated<number>;
    name: string;
    type: string;
    comtype: string | null;
    region: string;
    region_fmt: string;
    applicant: string;
    phone: string;
    source: Generated<number>;
    /** 0 pending, 1 approved, 2 rejected */
    status: Generated<number>;
    create_time: Timestamp;
    reviewer_id: number | null;
    reviewer_name: string | null;
    review_time: NullableTimestamp;
    /** why it was rejected */
    reason: string | null;
    /** the company and first account an approval created */
    company_id: number | null;
    user_id: number | null;
  };
  privacy_policy: {
    /** 1 服务协议, 2 入驻协议, 3 隐私政策, 4 授权协议 */
    type: number;
    title: string;
    content: string;
    update_time: Timestamp;
  };
  visits: { date: DateColumn; pv: Generated<number>; ip: Generated<number> };
  visit_ip: { date: DateColumn; ip: string };
  company_linkman: {
    id: Generated<number>;
    company_id: number;
    name: string;
    phone: string | null;
    position: string | null;
    create_time: Timestamp;
  };
  /**
   * SQL view over the table of the 企业仓库 view (server/lib/entity-views.ts): read it here, write the
   * records through that view. company_id is the company the record was created in.
   */
  company_warehouse: ViewRow<{
    id: number;
    company_id: number;
    name: string;
    region: string | null;
    region_fmt: string | null;
    address: string | null;
    /** the company's linkman named as the warehouse's 负责人 */
    linkman_id: number | null;
    unloading_point: boolean;
    create_time: Date;
  }>;
  /**
   * SQL view over the signed contracts (待签署, 生效中, 已到期) of the 合同管理 view's table
   * (server/lib/entity-views.ts): read it here, write the records through that view. The parties are the
   * companies the record names.
   */
  company_contract: ViewRow<{
    id: number;
    contract_no: string;
    party_a_company: number;
    party_a_name: string | null;
    party_a_phone: string | null;
    party_a_region: string | null;
    party_a_region_fmt: string | null;
    party_a_address: string | null;
    party_a_user_id: number | null;
    party_b_company: number;
    begin_time: unknown;
    end_time: unknown;
    amount: number | null;
    /** JSON list of uploaded files [{fileName, filePath}] */
    file_path: string | null;
    create_time: Date;
  }>;
  waste_category: {
    /** national catalogue code, e.g. 900-249-08 */
    code: string;
    name: string;
    /** class, e.g. HW08 */
    category: string;
    category_name: string;
  };
  company_waste_category: { company_id: number; code: string };
  disposal_process: {
    id: Generated<number>;
    /** parent process; null for the top-level ones (焚烧 D10, 填埋 D1, …) */
    pid: number | null;
    name: string;
    code: string;
    sort: Generated<number>;
  };
}
