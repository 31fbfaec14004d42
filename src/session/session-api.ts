/** The session calls, typed for the pages that use them. */
import { session } from '../contract/bare.gen';
import type { CallAnswer } from '../contract/define';
import type { session as sessionContract } from '../contract/session';
import { api } from '../request';
import { encryptPassword } from './encrypt-password';

export type Captcha = CallAnswer<(typeof sessionContract)['calls']['captcha']>;

export interface LoginForm {
  username: string;
  password: string;
  code: string;
  uuid: string;
  /** 记住我: the server keeps the session through the idle timeout for a day; the password is never stored. */
  rememberMe?: boolean;
}

export interface LoginResult {
  status: number;
  message?: string;
  token?: string;
  roles?: string[];
  pwdExpired?: boolean;
  user?: unknown;
}

/** The session's information (`session.info`): the user, their roles (permission strings) and their company. */
export type SessionInfo = CallAnswer<(typeof sessionContract)['calls']['info']>;

export function checkInit(): Promise<{ data?: { inited?: boolean } }> {
  return api(session.initCheck);
}

export function fetchCaptcha(): Promise<Captcha> {
  return api(session.captcha);
}

/** The server's RSA public key, as PEM text. */
export async function fetchPublicKey(): Promise<string> {
  const pem = (await (await api(session.publicKey)).text()).trim();
  if (!pem) throw new Error('无法获取加密公钥');
  return pem;
}

/** Encrypts the password with the server's key and posts the form-encoded login. Silent: the login page shows the failure. */
export async function login(form: LoginForm): Promise<LoginResult> {
  const password = await encryptPassword(await fetchPublicKey(), form.password);
  const { rememberMe, ...rest } = form;
  return api(session.login, { body: { ...rest, password, rememberMe: rememberMe ? 'true' : 'false' } }, { silent: true });
}

export function fetchSessionInfo(): Promise<SessionInfo> {
  return api(session.info);
}

/** Quiet: logging out of a session that has already expired is the expected case, not an error. */
export function logout(): Promise<unknown> {
  return api(session.logout, {}, { silent: true, skipAuthHandlers: true });
}
