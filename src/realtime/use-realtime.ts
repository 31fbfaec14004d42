/**
 * The realtime channel for the signed-in user (core-platform §4): the shell's layout calls this
 * once; it opens /websocket/{username}, and closes it when the layout unmounts or the user changes.
 * (Implemented with the request layer and realtime work.)
 */
export function useRealtime(_username: string | undefined): void {}
