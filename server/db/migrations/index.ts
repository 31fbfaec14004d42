import type { Migration } from 'kysely';
import * as m0001 from './0001_core.js';
import * as m0002 from './0002_accounts.js';
import * as m0003 from './0003_business.js';
import * as m0004 from './0004_lowcode.js';
import * as m0005 from './0005_screen_share.js';
import * as m0006 from './0006_dashboard.js';
import * as m0007 from './0007_company_review.js';
import * as m0008 from './0008_data_view_role.js';
import * as m0009 from './0009_login_guard.js';
import * as m0010 from './0010_company_unique_codes.js';
import * as m0011 from './0011_data_scope.js';
import * as m0012 from './0012_one_store.js';
import * as m0013 from './0013_design_version.js';
import * as m0014 from './0014_menu_components.js';
import * as m0015 from './0015_dashboard_title.js';
import * as m0016 from './0016_session_remember.js';
import * as m0017 from './0017_scope_indexes.js';
import * as m0018 from './0018_company_bank.js';
import * as m0019 from './0019_open_images.js';
import * as m0020 from './0020_inquiry_stock.js';
import * as m0021 from './0021_reference_indexes.js';
import * as m0022 from './0022_dash_fact_total.js';
import * as m0023 from './0023_data_view_login.js';
import * as m0024 from './0024_company_codes_nocase.js';
import * as m0025 from './0025_label_print_permission.js';
import * as m0026 from './0026_login_guard_address.js';
import * as m0027 from './0027_parties_by_id.js';
import * as m0028 from './0028_company_edit.js';
import * as m0029 from './0029_company_tenancy.js';
import * as m0030 from './0030_doc_numbers.js';
import * as m0031 from './0031_audit_trail.js';
import * as m0032 from './0032_menu_entries.js';
import * as m0033 from './0033_list_indexes.js';
import * as m0034 from './0034_paired_search_indexes.js';
import * as m0035 from './0035_audit_named_marks.js';
import * as m0036 from './0036_audit_refuses_unmarked.js';
import * as m0037 from './0037_author_accounts.js';
import * as m0038 from './0038_file_company.js';

/** Every migration, by version. Names sort in the order they apply; never rename or edit an applied one. */
export const migrations: Record<string, Migration> = {
  '0001_core': m0001,
  '0002_accounts': m0002,
  '0003_business': m0003,
  '0004_lowcode': m0004,
  '0005_screen_share': m0005,
  '0006_dashboard': m0006,
  '0007_company_review': m0007,
  '0008_data_view_role': m0008,
  '0009_login_guard': m0009,
  '0010_company_unique_codes': m0010,
  '0011_data_scope': m0011,
  '0012_one_store': m0012,
  '0013_design_version': m0013,
  '0014_menu_components': m0014,
  '0015_dashboard_title': m0015,
  '0016_session_remember': m0016,
  '0017_scope_indexes': m0017,
  '0018_company_bank': m0018,
  '0019_open_images': m0019,
  '0020_inquiry_stock': m0020,
  '0021_reference_indexes': m0021,
  '0022_dash_fact_total': m0022,
  '0023_data_view_login': m0023,
  '0027_parties_by_id': m0027,
  '0028_company_edit': m0028,
  '0024_company_codes_nocase': m0024,
  '0025_label_print_permission': m0025,
  '0026_login_guard_address': m0026,
  '0029_company_tenancy': m0029,
  '0030_doc_numbers': m0030,
  '0031_audit_trail': m0031,
  '0032_menu_entries': m0032,
  '0033_list_indexes': m0033,
  '0034_paired_search_indexes': m0034,
  '0035_audit_named_marks': m0035,
  '0036_audit_refuses_unmarked': m0036,
  '0037_author_accounts': m0037,
  '0038_file_company': m0038,
};
