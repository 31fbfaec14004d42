import { describe, expect, it } from 'vitest';
import { recordVisitOnce, VISIT_KEY } from './record-visit';

function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

describe('recordVisitOnce', () => {
  it('posts the visit once per session storage', () => {
    const storage = memoryStorage();
    let posts = 0;
    const post = async () => {
      posts++;
    };
    recordVisitOnce(storage, post);
    recordVisitOnce(storage, post);
    expect(posts).toBe(1);
    expect(storage.data.get(VISIT_KEY)).toBe('1');
    recordVisitOnce(memoryStorage(), post);
    expect(posts).toBe(2);
  });

  it('still counts when storage is refused, and a failed post throws nothing', async () => {
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    let posts = 0;
    recordVisitOnce(refusing, async () => {
      posts++;
      throw new Error('offline');
    });
    recordVisitOnce(null, async () => {
      posts++;
    });
    await Promise.resolve();
    expect(posts).toBe(2);
  });
});
