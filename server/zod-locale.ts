import { z } from 'zod';
import { namedTable } from './lib/named-table.js';

/** zod's names of kinds of value, in the words the answers use. */
const KIND_WORDS: Readonly<Record<string, string>> = namedTable({
  object: '对象',
  string: '文本',
  number: '数字',
  int: '整数',
  boolean: '布尔值',
  array: '数组',
  bigint: '大整数',
  date: '日期',
  undefined: '空值',
  null: '空值',
  symbol: '符号',
  function: '函数',
  file: '文件',
  map: '映射',
  set: '集合',
  tuple: '元组',
  record: '对象',
  unknown: '值',
});
const KIND = new RegExp(`\\b(${Object.keys(KIND_WORDS).join('|')})\\b`, 'g');
const zhCN = z.locales.zhCN().localeError;

/**
 * A problem no schema words itself still reaches the user in Chinese: zod's own messages follow its
 * zh-CN locale, with the kinds of value it leaves in English named in Chinese. It is set for the
 * server's process only; the CLI keeps its English.
 */
export function setChineseZodMessages(): void {
  z.config({
    localeError: (issue) => {
      const m = zhCN(issue);
      const text = typeof m === 'string' ? m : m?.message;
      return text?.replace(KIND, (word: string) => KIND_WORDS[word] ?? word);
    },
  });
}
