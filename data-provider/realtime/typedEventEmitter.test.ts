import { describe, expect, it, vi } from 'vitest';
import { TypedEventEmitter } from './typedEventEmitter';

class Emitter extends TypedEventEmitter<{ ping: { n: number }; other: undefined }> {
  fire(n: number): void {
    this.emit('ping', { n });
  }
  count(): number {
    return this.listenerCount('ping');
  }
}

describe('TypedEventEmitter', () => {
  it('calls the listeners of an event in order with the payload, and no others', () => {
    const emitter = new Emitter();
    const calls: string[] = [];
    emitter.on('ping', ({ n }) => calls.push(`a${n}`));
    emitter.on('ping', ({ n }) => calls.push(`b${n}`));
    emitter.on('other', () => calls.push('other'));
    emitter.fire(1);
    expect(calls).toEqual(['a1', 'b1']);
  });
  it('removes listeners by off and by the function on answers', () => {
    const emitter = new Emitter();
    const first = vi.fn();
    const second = vi.fn();
    emitter.on('ping', first);
    const removeSecond = emitter.on('ping', second);
    emitter.off('ping', first);
    removeSecond();
    emitter.fire(1);
    expect(first).not.toHaveBeenCalled();
    expect(second).not.toHaveBeenCalled();
    expect(emitter.count()).toBe(0);
  });
  it('still calls every listener when one removes itself', () => {
    const emitter = new Emitter();
    const second = vi.fn();
    const remove = emitter.on('ping', () => remove());
    emitter.on('ping', second);
    emitter.fire(1);
    expect(second).toHaveBeenCalledTimes(1);
    expect(emitter.count()).toBe(1);
  });
});
