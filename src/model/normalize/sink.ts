import type { Problem, ProblemCode } from '../problems.js';

/** Collects the problems of one definition file, each with its JSON pointer; nothing is thrown. */
export class Sink {
  readonly problems: Problem[] = [];
  constructor(readonly file: string) {}
  add(code: ProblemCode, pointer: string, message: string, hint?: string): void {
    this.problems.push(hint ? { code, file: this.file, pointer, message, hint } : { code, file: this.file, pointer, message });
  }
}
