import { isWarning, type Problem } from '../../model';

/** `?id=5&companyId=3` → { id: 5, companyId: 3 }: route query values are read as numbers; one that is not a number stays text. */
export function queryValues(search: string): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  for (const [k, v] of new URLSearchParams(search)) {
    const n = v.trim() === '' ? Number.NaN : Number(v);
    out[k] = Number.isFinite(n) ? n : v;
  }
  return out;
}

/** `pointer: message` lines of the problems that stop a definition from rendering (warnings do not). */
export function blockingProblems(problems: readonly Problem[]): string[] {
  return problems.filter((p) => !isWarning(p)).map((p) => `${p.pointer}: ${p.message}`);
}
