/**
 * Share links of big screens and the open calls behind them: making or revoking a link needs the screen
 * edit permission; the open calls need no session, only a valid, unexpired link with the screen's
 * current access key, and answer only for the data views that screen uses.
 */
import { z } from 'zod';
import { DATA_VIEW_RUN_ERRORS, dataViewAnswer } from './data-views.js';
import { call, resource, write } from './define.js';
import { lowcodeId } from './lowcode-fields.js';
import { sharedScreen } from './screens.js';

/** A share link's parameters as the open calls read them (`lsId`, or `id`, with `accessKey`, `timestamp`, `signature`). */
export const shareLink = z
  .object({ lsId: z.unknown(), id: z.unknown(), accessKey: z.unknown(), timestamp: z.unknown(), signature: z.unknown() })
  .partial()
  .catchall(z.unknown());

/** What checking a share link may refuse. */
const LINK_ERRORS = ['SHARE_INVALID', 'SHARE_EXPIRED', 'SHARE_REVOKED', 'SCREEN_NOT_FOUND'] as const;
/** What reading a shared screen's data may refuse besides. */
const OPEN_DATA_ERRORS = [
  ...LINK_ERRORS,
  ...DATA_VIEW_RUN_ERRORS,
  'SCREEN_NOT_ENABLED',
  'SHARE_DATA_VIEW_NOT_USED',
  'DATA_VIEW_NOT_FOUND',
] as const;

export const screenShare = resource('screen-share', '大屏分享', {
  share: call('POST', '/api/screen/share', '生成大屏分享链接', 'screen:edit', {
    platform: true,
    log: '分享大屏',
    body: z.object({ id: lowcodeId, expiresIn: z.unknown() }),
    answer: z.object({ url: z.string(), expiresAt: z.number() }),
    errors: ['SCREEN_NOT_FOUND', 'SHARE_NOT_BIG_SCREEN', 'SHARE_SECONDS_NOT_WHOLE', 'SHARE_SECONDS_RANGE'],
  }),
  renewKey: write('POST', '/api/screen/renewKey', '撤销大屏分享链接', 'screen:edit', {
    platform: true,
    body: z.object({ id: lowcodeId }),
    answer: z.object({ status: z.number(), message: z.string() }),
    errors: ['SCREEN_NOT_FOUND', 'SHARE_NOT_BIG_SCREEN'],
  }),
  screen: call('GET', '/api/open/getGeneralScreen', '分享链接的大屏', 'public', {
    query: shareLink,
    answer: sharedScreen,
    errors: [...LINK_ERRORS, 'SCREEN_NOT_ENABLED'],
    example: { refuses: 'SHARE_INVALID' },
  }),
  cityInfo: call('GET', '/api/open/getCityInfo', '分享链接的大屏的城市数据', 'public', {
    query: shareLink,
    answer: z.array(z.record(z.string(), z.unknown())),
    errors: OPEN_DATA_ERRORS,
    example: { refuses: 'SHARE_INVALID' },
  }),
  data: call('GET', '/api/open/data', '分享链接的大屏的数据视图', 'public', {
    query: shareLink,
    answer: dataViewAnswer,
    errors: [...OPEN_DATA_ERRORS, 'DATA_VIEW_REQUIRED'],
    example: { refuses: 'SHARE_INVALID' },
  }),
});
