/**
 * A data view column's database type in the words a designer reads: 文本, 整数, 小数, 日期, 时间,
 * 是/否. A type these words do not cover reads 其他.
 */
export function columnTypeWord(type: string): string {
  const t = type.toLowerCase().trim();
  if (/^(character varying|varchar|character|char|bpchar|text|name|citext|uuid)\b/.test(t)) return '文本';
  if (/^(smallint|integer|int|int2|int4|int8|bigint|smallserial|serial|bigserial)\b/.test(t)) return '整数';
  if (/^(numeric|decimal|real|double precision|float4|float8|money)\b/.test(t)) return '小数';
  if (/^date$/.test(t)) return '日期';
  if (/^(timestamp|time)\b/.test(t)) return '时间';
  if (/^(boolean|bool)$/.test(t)) return '是/否';
  if (/^(json|jsonb)$/.test(t)) return '结构数据';
  return '其他';
}

/** A column as a picker offers it: its name and the kind of value it holds, 名称（文本）. */
export const columnLabel = (c: { name: string; type: string }) => `${c.name}（${columnTypeWord(c.type)}）`;
