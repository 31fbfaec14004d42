import { describe, expect, it } from 'vitest';
import { LoopShare } from '../../server/lib/loop-share.js';

/**
 * LoopShare lets a few callers through per turn of the event loop and the rest on later turns, in the
 * order they asked, so that callbacks of the loop's other phases (timers, I/O) run between them.
 */
describe('LoopShare', () => {
  it('lets `perTurn` callers through at once and the rest wait', () => {
    const share = new LoopShare(3);
    const taken = Array.from({ length: 5 }, () => share.take());
    expect(taken.slice(0, 3)).toEqual([undefined, undefined, undefined]);
    expect(taken[3]).toBeInstanceOf(Promise);
    expect(taken[4]).toBeInstanceOf(Promise);
  });

  it('lets the waiting go on in order, a turn at a time, with a timer of the loop between the turns', async () => {
    const share = new LoopShare(2);
    const events: string[] = [];
    for (let i = 0; i < 2; i++) share.take();
    const waiting = Array.from({ length: 5 }, (_, i) => share.take()?.then(() => events.push(`caller ${i}`)));
    // A timer already due runs in the loop's next turn: after the first waiting turn, before the second.
    await new Promise<void>((resolve) => setImmediate(resolve));
    setTimeout(() => events.push('timer'), 0);
    const due = performance.now() + 3;
    while (performance.now() < due) {
      // The timer's millisecond passes.
    }
    await Promise.all(waiting);
    expect(events).toEqual(['caller 0', 'caller 1', 'timer', 'caller 2', 'caller 3', 'caller 4']);
  });

  it('starts every turn afresh: after a quiet turn, callers go on at once again', async () => {
    const share = new LoopShare(1);
    expect(share.take()).toBeUndefined();
    expect(share.take()).toBeInstanceOf(Promise);
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(share.take()).toBeUndefined();
  });
});
