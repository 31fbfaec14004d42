/**
 * A field pattern (a regular-expression source) said in words, for the message of a value that does
 * not match it: `^RK\d{12}$` → RK（12位数字）, `^\d{3}-\d{3}-\d{2}$` → （3位数字）-（3位数字）-（2位数字）.
 * Literal text stays as it is and each character class with its count is said in brackets. A
 * pattern with anything else (alternatives, groups, optional parts) has no words.
 */

const CLASSES: Record<string, string> = {
  '\\d': '数字',
  '[0-9]': '数字',
  '\\w': '字母、数字或下划线',
  '[A-Z]': '大写字母',
  '[a-z]': '小写字母',
  '[A-Za-z]': '字母',
  '[a-zA-Z]': '字母',
  '[A-Za-z0-9]': '字母或数字',
  '[a-zA-Z0-9]': '字母或数字',
  '[A-Z0-9]': '大写字母或数字',
  '[0-9A-Z]': '大写字母或数字',
};

const CLASS_TOKEN = /^(\\d|\\w|\[[^\]]+\])/;
const COUNT_TOKEN = /^(\{(\d+)(?:,(\d*))?\}|\+)/;
/** Characters that stand for themselves, or escaped ones that do. */
const LITERAL_TOKEN = /^([A-Za-z0-9_\-/:#@一-鿿]|\\[.\-/()[\]{}+*?^$|\\])/;

function countText(token: string | undefined, min?: string, max?: string): string | null {
  if (token === undefined) return '1位';
  if (token === '+') return '';
  if (max === undefined) return `${min}位`;
  if (max === '') return `至少${min}位`;
  return `${min}到${max}位`;
}

/** The pattern in words, or null when it holds more than literal text and counted classes. */
export function patternWords(pattern: string): string | null {
  let rest = pattern.replace(/^\^/, '').replace(/\$$/, '');
  const parts: { text: string; literal: boolean }[] = [];
  while (rest) {
    const cls = CLASS_TOKEN.exec(rest);
    if (cls) {
      const name = CLASSES[cls[1] as string];
      if (!name) return null;
      rest = rest.slice(cls[0].length);
      const count = COUNT_TOKEN.exec(rest);
      const n = countText(count?.[1], count?.[2], count?.[3]);
      if (n === null) return null;
      if (count) rest = rest.slice(count[0].length);
      parts.push({ text: `${n}${name}`, literal: false });
      continue;
    }
    const lit = LITERAL_TOKEN.exec(rest);
    if (!lit) return null;
    rest = rest.slice(lit[0].length);
    // A counted literal (a{3}) or a quantifier after it is beyond plain words.
    if (/^[{+*?]/.test(rest)) return null;
    const ch = (lit[1] as string).replace(/^\\/, '');
    const last = parts.at(-1);
    if (last?.literal) last.text += ch;
    else parts.push({ text: ch, literal: true });
  }
  if (!parts.length) return null;
  if (parts.length === 1) return parts[0]?.text ?? null;
  return parts.map((p) => (p.literal ? p.text : `（${p.text}）`)).join('');
}

/**
 * The message of a value that does not match a field's pattern: {label}格式不正确, naming the format
 * expected when the pattern can be said in words. A regular expression is never shown to staff; the
 * field's tips, drawn under it, give the example.
 */
export function patternMessage(label: string, pattern: string): string {
  const words = patternWords(pattern);
  return words === null ? `${label}格式不正确` : `${label}格式不正确，应为${words}`;
}
