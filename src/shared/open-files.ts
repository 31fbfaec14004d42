/**
 * An upload with `open=1` is served by /api/open/image to anyone holding its stored path, without a
 * session. Only public content may be such a file: the pictures big screens draw for share links and
 * wall displays (大屏设计, `screen:design`) and the pictures of bulletins (`bulletin:edit`). Holding one of
 * these permissions with 全部 (the screens and bulletins are the platform's) lets an account upload open
 * files; every other upload is read with a session only.
 */
export const OPEN_UPLOAD_PERMISSIONS: readonly string[] = ['screen:design', 'bulletin:edit'];
