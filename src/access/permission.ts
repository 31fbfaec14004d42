export { ADMIN_ROLE, ALL_PERMISSIONS, hasPermission } from '../model';
