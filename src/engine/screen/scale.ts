import { createContext } from 'react';

/**
 * The scale the canvas is drawn at (window size over design size). Charts read it when they create
 * their ECharts instance, to render at a pixel ratio that stays sharp on a scaled-up wall; they
 * subscribe to hear when it changes.
 */
export interface ScaleSource {
  get(): number;
  subscribe(listener: () => void): () => void;
}

export class ScaleStore implements ScaleSource {
  private value = 1;
  private readonly listeners = new Set<() => void>();

  get(): number {
    return this.value;
  }

  set(value: number): void {
    if (!Number.isFinite(value) || value <= 0 || value === this.value) return;
    this.value = value;
    for (const listener of [...this.listeners]) listener();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}

export const ScaleContext = createContext<ScaleSource>(new ScaleStore());

/** Canvas pixels per CSS pixel for a chart on a canvas drawn at `scale`: at least the device's and the scale's, at most 4. */
export function pixelRatioFor(scale: number, devicePixelRatio = typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1): number {
  return Math.min(4, Math.max(devicePixelRatio, devicePixelRatio * scale, scale));
}
