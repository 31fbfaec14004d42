export {
  ALL_RECORDS,
  DATA_SCOPES,
  type DataScope,
  type DataScopeName,
  DEFAULT_DATA_SCOPE,
  dataScopeKey,
  isDataScopeName,
  loadDataScope,
  SUPERVISOR_DEPT,
} from '../lib/data-scope.js';
