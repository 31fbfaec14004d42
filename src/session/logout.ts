import { notify } from '../notify/notifier';
import { APP_PATHS } from '../shared/app-paths';
import { sessionStore } from './session-store';

/**
 * Logout asks first, then ends the session (server call, token, roles and
 * fund-account info) and starts again from /login. Resolves whether the user logged out.
 */
export async function confirmLogout(): Promise<boolean> {
  const ok = await notify.confirm({ title: '提示', content: '确定注销并退出系统吗？', okText: '确定', cancelText: '取消' });
  if (!ok) return false;
  await sessionStore.logout();
  window.location.assign(APP_PATHS.login);
  return true;
}
