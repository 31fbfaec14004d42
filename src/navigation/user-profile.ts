/**
 * What the top bar shows of the signed-in user that the personal centre can change (nickname and
 * avatar): the session's values until the personal centre reports newer ones for the same user.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import { files } from '../contract/files';
import { api } from '../request';
import { createListeners } from '../shared/listeners';

export interface ProfilePatch {
  userId: number;
  nickName: string;
  avatar: string | null;
}

let current: ProfilePatch | null = null;
const { subscribe, emit } = createListeners();

export const userProfileStore = {
  get: (): ProfilePatch | null => current,
  subscribe,
  set(next: ProfilePatch): void {
    if (current && current.userId === next.userId && current.nickName === next.nickName && current.avatar === next.avatar) return;
    current = next;
    emit();
  },
};

/** The newer nickname and avatar of `userId`, if the personal centre has reported any. */
export function useUserProfile(userId: number | undefined): ProfilePatch | null {
  const p = useSyncExternalStore(userProfileStore.subscribe, userProfileStore.get, userProfileStore.get);
  return p && p.userId === userId ? p : null;
}

/** A stored avatar as an image URL (the preview needs the session's headers); released when it changes. */
export function useAvatarUrl(path: string | null | undefined): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!path) {
      setUrl(undefined);
      return;
    }
    let made: string | undefined;
    let gone = false;
    api(files.calls.preview, { query: { source: path } }, { silent: true })
      .then((response) => response.blob())
      .then((blob) => {
        if (gone) return;
        made = URL.createObjectURL(blob);
        setUrl(made);
      })
      .catch(() => !gone && setUrl(undefined));
    return () => {
      gone = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [path]);
  return url;
}
