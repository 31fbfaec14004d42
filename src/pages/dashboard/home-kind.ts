export { DASHBOARD_TITLES, type DashboardKind, dashboardKind } from '../../shared/dashboard-kind';
