import { namedTable } from '../lib/named-table.js';

/**
 * The text of every cell of an imported worksheet, counted while its XML streams past and before the
 * workbook reader sees each piece, as the reader (ExcelJS's streaming reader) will build it: a shared
 * string counts once per cell that references it, so a small file that points many cells at one long
 * string is refused before any of them is expanded.
 *
 * The scanners follow the reader's own rules for which text lands in a cell: text nodes (entities
 * decoded, CDATA ignored) gathered since the cell's last `<v>`, `<is>` or `<t>`, a shared string's
 * text since its last `<t>`, or its runs. Where the reader would keep less than what is counted (e.g.
 * the last run of a rich inline string), the count errs on the side of more.
 */

/** Excel's own limit on the characters of one cell. */
export const MAX_CELL_CHARS = 32_767;

export interface CellTextLimits {
  /** Most characters one cell may hold (its value, or its formula). */
  maxCellChars: number;
  /** Most characters of text the whole sheet may hold, a shared string counted for each cell that shows it. */
  maxTextChars: number;
}

/** Why a sheet is refused, and the cell where its text passed the limit (1-based). */
export class CellTextRefused extends Error {
  constructor(
    readonly reason: 'cell' | 'total',
    readonly row: number,
    readonly column: number,
  ) {
    super(reason === 'cell' ? `cell at row ${row}, column ${column} is too long` : `text over the limit at row ${row}, column ${column}`);
  }
}

/** XML the reader would fail on anyway, refused here before it is handed on. */
export class XmlRefused extends Error {}

/** Markup longer than this is only skipped over; the elements that matter are never this long. */
const TAG_MAX_CHARS = 4096;
/** An index of a shared string is read from this many characters at most. */
const INDEX_MAX_CHARS = 64;

enum State {
  Text,
  Markup,
  Tag,
  Comment,
  CData,
  Instruction,
}

const NAMED: Record<string, string> = namedTable({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" });

/** The character an entity (without `&` and `;`) stands for, as the XML parser decodes it. */
function entity(name: string): string {
  const named = NAMED[name];
  if (named) return named;
  const m = /^#(?:x([0-9a-fA-F]{1,6})|([0-9]{1,7}))$/.exec(name);
  const code = m ? Number.parseInt(m[1] ?? (m[2] as string), m[1] ? 16 : 10) : Number.NaN;
  if (!(code > 0 && code <= 0x10ffff)) throw new XmlRefused(`entity &${name};`);
  return String.fromCodePoint(code);
}

/** An attribute value as the XML parser hands it over: white space normalised, entities decoded. */
function attributeValue(raw: string): string {
  return raw.replace(/[\t\n\r]/g, ' ').replace(/&([^;&]{1,10});/g, (_, name: string) => entity(name));
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/** Where an element's name ends in its markup (the text between `<` and `>`). */
function nameEnd(tag: string, from: number): number {
  let i = from;
  while (i < tag.length) {
    const c = tag.charCodeAt(i);
    if (isSpace(c) || c === 0x2f) break;
    i++;
  }
  return i;
}

/** The values of attributes `r` and `t` in an element's markup, decoded (the others are skipped). */
function refAndType(tag: string): { r: string | undefined; t: string | undefined } {
  const out: { r: string | undefined; t: string | undefined } = { r: undefined, t: undefined };
  let i = nameEnd(tag, 0);
  while (i < tag.length) {
    while (i < tag.length && (isSpace(tag.charCodeAt(i)) || tag.charCodeAt(i) === 0x2f)) i++;
    const eq = tag.indexOf('=', i);
    if (eq < 0) return out;
    const key = tag.slice(i, eq).trimEnd();
    let v = eq + 1;
    while (v < tag.length && isSpace(tag.charCodeAt(v))) v++;
    const quote = tag[v];
    if (quote !== '"' && quote !== "'") return out;
    const close = tag.indexOf(quote, v + 1);
    if (close < 0) return out;
    if (key === 'r' || key === 't') {
      const raw = tag.slice(v + 1, close);
      out[key] = /[&\t\n\r]/.test(raw) ? attributeValue(raw) : raw;
    }
    i = close + 1;
  }
  return out;
}

/**
 * A streaming XML tokenizer over UTF-8 chunks: it hands on element starts and ends, and the length of
 * text (in UTF-16 code units, as JavaScript counts a string) while `counting` is on. It holds only the
 * markup of one tag, never text.
 */
abstract class XmlScanner {
  private readonly decoder = new TextDecoder('utf-8');
  private state = State.Text;
  /** Characters held over to the next chunk: an entity or a markup start cut by the chunk's end. */
  private carry = '';
  private tag = '';
  private tagLength = 0;
  private quote = 0;
  /** Turned on by the subclass while the text it is in lands somewhere. */
  protected counting = false;
  /** When a string, the decoded text counted is also gathered here, up to INDEX_MAX_CHARS. */
  protected captured: string | null = null;

  protected abstract open(name: string, tag: string, selfClosing: boolean): void;
  protected abstract close(name: string): void;
  protected abstract text(units: number): void;

  feed(chunk: Buffer): void {
    this.scan(this.decoder.decode(chunk, { stream: true }));
  }

  /** The part has ended: what is left over must be nothing but white space. */
  end(): void {
    this.scan(this.decoder.decode());
    if (this.carry || this.state !== State.Text) throw new XmlRefused('part ends inside markup');
  }

  private counted(s: string, from: number, to: number): void {
    if (to <= from) return;
    if (this.captured !== null && this.captured.length <= INDEX_MAX_CHARS)
      this.captured += s.slice(from, Math.min(to, from + INDEX_MAX_CHARS + 1));
    this.text(to - from);
  }

  private scan(input: string): void {
    const s = this.carry ? this.carry + input : input;
    this.carry = '';
    let i = 0;
    const n = s.length;
    // The next '&', '>', '"' and "'" at or after i, each found once per stretch rather than once per
    // node (-1: not looked for yet; 2^32 - 1: none left).
    let ampAt = -1;
    let gtAt = -1;
    let dqAt = -1;
    let sqAt = -1;
    while (i < n) {
      switch (this.state) {
        case State.Text: {
          const lt = s.indexOf('<', i);
          const end = lt < 0 ? n : lt;
          if (this.counting) {
            while (i < end) {
              if (ampAt < i) ampAt = s.indexOf('&', i) >>> 0;
              const amp = ampAt;
              if (amp >= end) {
                this.counted(s, i, end);
                i = end;
                break;
              }
              this.counted(s, i, amp);
              const semi = s.indexOf(';', amp);
              if (semi < 0 || semi > end) {
                // An entity cut by the chunk's end waits for the rest; one cut by markup is malformed.
                if (lt >= 0 || n - amp > 12) throw new XmlRefused('unterminated entity');
                this.carry = s.slice(amp);
                return;
              }
              const ch = entity(s.slice(amp + 1, semi));
              if (this.captured !== null && this.captured.length <= INDEX_MAX_CHARS) this.captured += ch;
              this.text(ch.length);
              i = semi + 1;
            }
          }
          if (lt < 0) return;
          i = lt;
          this.state = State.Markup;
          break;
        }
        case State.Markup: {
          // s[i] is '<': what follows says what kind of markup this is; a start cut by the chunk's end waits.
          const rest = n - i;
          const next = s[i + 1];
          if (next === '!') {
            if (rest >= 4 && s.startsWith('<!--', i)) {
              this.state = State.Comment;
              i += 4;
            } else if (rest < 9) {
              this.carry = s.slice(i);
              return;
            } else if (s.startsWith('<![CDATA[', i)) {
              this.state = State.CData;
              i += 9;
            } else {
              // A document type declaration could declare entities; no workbook part has one.
              throw new XmlRefused('document type declaration');
            }
          } else if (next === '?') {
            this.state = State.Instruction;
            i += 2;
          } else if (next === undefined) {
            this.carry = s.slice(i);
            return;
          } else {
            this.state = State.Tag;
            this.tag = '';
            this.tagLength = 0;
            this.quote = 0;
            i += 1;
          }
          break;
        }
        case State.Tag: {
          // The tag ends at the first '>' outside a quoted attribute value.
          let j = i;
          let quote = this.quote;
          for (;;) {
            if (quote) {
              const close = s.indexOf(quote === 0x22 ? '"' : "'", j);
              if (close < 0) {
                j = n;
                break;
              }
              j = close + 1;
              quote = 0;
              continue;
            }
            if (gtAt < j) gtAt = s.indexOf('>', j) >>> 0;
            if (dqAt < j) dqAt = s.indexOf('"', j) >>> 0;
            if (sqAt < j) sqAt = s.indexOf("'", j) >>> 0;
            const q = Math.min(dqAt, sqAt);
            if (gtAt < q) {
              j = gtAt;
              break;
            }
            if (q >= n) {
              j = n;
              break;
            }
            quote = q === dqAt ? 0x22 : 0x27;
            j = q + 1;
          }
          this.quote = quote;
          if (j === n) {
            // The tag goes on in the next chunk: keep what there is of it.
            if (this.tag.length < TAG_MAX_CHARS) this.tag += s.slice(i, Math.min(n, i + TAG_MAX_CHARS - this.tag.length));
            this.tagLength += n - i;
            return;
          }
          let tag: string;
          if (this.tag) {
            tag = this.tag.length < TAG_MAX_CHARS ? this.tag + s.slice(i, Math.min(j, i + TAG_MAX_CHARS - this.tag.length)) : this.tag;
            this.tagLength += j - i;
            this.tag = '';
          } else {
            tag = s.slice(i, Math.min(j, i + TAG_MAX_CHARS));
            this.tagLength = j - i;
          }
          i = j + 1;
          this.state = State.Text;
          this.element(tag);
          break;
        }
        case State.Comment:
        case State.CData:
        case State.Instruction: {
          const close = this.state === State.Comment ? '-->' : this.state === State.CData ? ']]>' : '?>';
          const at = s.indexOf(close, i);
          if (at < 0) {
            // The terminator may be cut by the chunk's end: keep its possible start.
            this.carry = s.slice(Math.max(i, n - (close.length - 1)));
            return;
          }
          i = at + close.length;
          this.state = State.Text;
          break;
        }
      }
    }
  }

  private element(tag: string): void {
    const closing = tag.charCodeAt(0) === 0x2f;
    const name = tag.slice(closing ? 1 : 0, nameEnd(tag, closing ? 1 : 0));
    if (!name) throw new XmlRefused('markup without a name');
    if (this.tagLength > TAG_MAX_CHARS && this.matters(name)) throw new XmlRefused(`<${name}> is too long`);
    if (closing) {
      this.close(name);
      return;
    }
    let last = tag.length - 1;
    while (last > 0 && isSpace(tag.charCodeAt(last))) last--;
    const selfClosing = tag.charCodeAt(last) === 0x2f;
    this.open(name, tag, selfClosing);
    if (selfClosing) this.close(name);
  }

  /** Elements whose attributes or text the scanner reads; these are never long. */
  protected abstract matters(name: string): boolean;
}

/**
 * The shared strings part: the length of each string as the reader builds it (plain text since its
 * last `<t>`, or the sum of its runs).
 */
export class SharedStringLengths extends XmlScanner {
  /** Length of each shared string, by index. */
  lengths = new Uint32Array(1024);
  count = 0;
  /** The longest shared string. */
  longest = 0;
  private current = 0;
  private runs = 0;
  private runsTotal = 0;

  constructor() {
    super();
    // The reader gathers every text node of the part into the string being built.
    this.counting = true;
  }

  protected matters(name: string): boolean {
    return name === 'si' || name === 't' || name === 'r';
  }

  protected open(name: string): void {
    if (name === 'si') {
      this.current = 0;
      this.runs = 0;
      this.runsTotal = 0;
    } else if (name === 't') {
      this.current = 0;
    }
  }

  protected close(name: string): void {
    if (name === 'r') {
      this.runsTotal += this.current;
      this.runs++;
      this.current = 0;
    } else if (name === 'si') {
      const length = this.runs ? this.runsTotal : this.current;
      if (this.count === this.lengths.length) {
        const grown = new Uint32Array(this.lengths.length * 2);
        grown.set(this.lengths);
        this.lengths = grown;
      }
      this.lengths[this.count++] = Math.min(length, 0xffffffff);
      this.longest = Math.max(this.longest, length);
      this.current = 0;
      this.runs = 0;
      this.runsTotal = 0;
    }
  }

  protected text(units: number): void {
    this.current += units;
  }
}

interface Cell {
  row: number;
  column: number;
  type: string;
  formula: boolean;
  value: boolean;
}

/** What the reader is gathering text into: a cell's formula or its value. */
interface Gathering {
  cell: Cell;
  formula: boolean;
  chars: number;
}

/**
 * A worksheet part: refuses the first cell whose text passes `maxCellChars`, and the first cell at
 * which the sheet's text passes `maxTextChars`. Strings count: shared strings (by the length of the
 * one referenced), inline strings and string results of formulas; every cell's own value and formula
 * text count towards the cell limit.
 */
export class SheetText extends XmlScanner {
  /** Characters of text counted so far. */
  total = 0;
  private inRows = false;
  private inRow = false;
  private rowNumber = 0;
  private column = 0;
  private cell: Cell | null = null;
  private gathering: Gathering | null = null;

  constructor(
    private readonly strings: SharedStringLengths,
    private readonly limits: CellTextLimits,
  ) {
    super();
  }

  protected matters(name: string): boolean {
    return name === 'sheetData' || name === 'row' || name === 'c' || name === 'f' || name === 'v' || name === 'is' || name === 't';
  }

  protected open(name: string, tag: string): void {
    switch (name) {
      case 'sheetData':
        this.inRows = true;
        break;
      case 'row':
        if (!this.inRows) break;
        this.inRow = true;
        this.rowNumber = Number.parseInt(refAndType(tag).r ?? '', 10) || this.rowNumber + 1;
        this.column = 0;
        break;
      case 'c': {
        if (!this.inRow) break;
        const { r, t } = refAndType(tag);
        const letters = r ? columnLetters(r) : 0;
        this.column = letters ? columnNumber(r as string, letters) : this.column + 1;
        this.cell = { row: this.rowNumber, column: this.column, type: t ?? 'n', formula: false, value: false };
        break;
      }
      case 'f':
      case 'v':
      case 'is':
      case 't': {
        const cell = this.cell;
        if (!cell) break;
        const formula = name === 'f';
        if (formula) cell.formula = true;
        else cell.value = true;
        this.gathering = { cell, formula, chars: 0 };
        this.counting = true;
        this.captured = !formula && cell.type === 's' ? '' : null;
        break;
      }
    }
  }

  protected close(name: string): void {
    switch (name) {
      case 'sheetData':
        this.inRows = false;
        break;
      case 'row':
        this.inRow = false;
        break;
      case 'c': {
        const cell = this.cell;
        if (!cell || !this.inRow) break;
        if (cell.type === 's' && !cell.formula && cell.value) this.sharedString(cell);
        this.cell = null;
        break;
      }
    }
  }

  /** A shared string's length counts when the cell that shows it ends, as the reader looks it up then. */
  private sharedString(cell: Cell): void {
    const raw = this.gathering?.cell === cell ? this.captured : null;
    let length: number;
    if (raw === null || raw.length > INDEX_MAX_CHARS) length = this.strings.longest;
    else {
      const index = Number.parseInt(raw, 10);
      length = Number.isInteger(index) && index >= 0 && index < this.strings.count ? (this.strings.lengths[index] as number) : 0;
    }
    if (length > this.limits.maxCellChars) throw new CellTextRefused('cell', cell.row, cell.column);
    this.total += length;
    if (this.total > this.limits.maxTextChars) throw new CellTextRefused('total', cell.row, cell.column);
  }

  protected text(units: number): void {
    const g = this.gathering;
    if (!g) return;
    g.chars += units;
    if (g.chars > this.limits.maxCellChars) throw new CellTextRefused('cell', g.cell.row, g.cell.column);
    if (!g.formula && (g.cell.type === 'str' || g.cell.type === 'inlineStr')) {
      this.total += units;
      if (this.total > this.limits.maxTextChars) throw new CellTextRefused('total', g.cell.row, g.cell.column);
    }
  }
}

const isLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

/** How many column letters a cell reference (`B3`, `$B$3`) starts with after its `$`, at most 3. */
function columnLetters(ref: string): number {
  const from = ref.charCodeAt(0) === 0x24 ? 1 : 0;
  let k = 0;
  while (k < 3 && isLetter(ref.charCodeAt(from + k))) k++;
  return k;
}

/** Column number of a reference's letters: A is 1, Z 26, AA 27. */
function columnNumber(ref: string, letters: number): number {
  const from = ref.charCodeAt(0) === 0x24 ? 1 : 0;
  let n = 0;
  for (let k = 0; k < letters; k++) n = n * 26 + ((ref.charCodeAt(from + k) & ~0x20) - 64);
  return n;
}
