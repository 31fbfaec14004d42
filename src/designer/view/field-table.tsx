import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, HolderOutlined, PlusOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Empty, Input, InputNumber, Popconfirm, Select, Space, Switch, Tooltip, Typography } from 'antd';
import { memo, type ReactNode, useCallback, useMemo, useRef, useState } from 'react';
import { CONFIGURE_BOOLEAN_KEYS, CONFIGURE_NUMBER_KEYS, type FieldKind, isRecord, type Problem, VALIDATOR_NAMES } from '../../model/index';
import {
  boolOf,
  configureOf,
  FIELD_KINDS,
  formKeysOf,
  type Json,
  kindOf,
  moveItem,
  newField,
  numOf,
  orAbsent,
  problemsAt,
  renumber,
  SHOW_OPTIONS,
  setConfigure,
  tableKeysOf,
  textOf,
  withKind,
} from './designer-model';
import { CellProblems, statusOf } from './problem-ui';

/** Options the field editors pick from: the dictionaries and this form's field names. */
export interface PickLists {
  dicts: readonly string[];
  /** Undefined when the dictionary list could not be read (the name is typed instead). */
  dictsLoaded: boolean;
  fieldNames: readonly string[];
}

const LABELS: Record<string, string> = {
  search: '搜索',
  show: '显示',
  width: '列宽',
  align: '对齐',
  sortable: '可排序',
  overflow: '超出省略',
  unit: '单位',
  dict: '字典',
  tags: '标签样式',
  money: '金额格式',
  decimals: '小数位',
  timeFmt: '时间格式',
  required: '必填',
  defaultValue: '默认值',
  tips: '提示',
  inputWidth: '输入框宽度',
  disabled: '禁用',
  editLock: '编辑时锁定',
  pattern: '正则',
  validator: '校验器',
  rows: '行数',
  min: '最小值',
  max: '最大值',
  sportData_type: '选项形式',
  sportData_list_multiple: '多选',
  sportData_url: '选项地址',
  sportData_params: '请求参数',
  fileType: '文件类型',
  fileSize: '最多文件数',
};

/** A choice that may be left unset: clearing it removes the key. */
function OptionalSelect({
  width,
  value,
  onChange,
  options,
  placeholder,
}: {
  width: number;
  value: unknown;
  onChange: (v: unknown) => void;
  options: { value: string; label: string }[];
  placeholder?: string;
}) {
  return (
    <Select
      size="small"
      allowClear
      style={{ width }}
      value={value === undefined ? undefined : textOf(value)}
      onChange={(v) => onChange(v ?? undefined)}
      options={options}
      placeholder={placeholder}
    />
  );
}

/** One configure key's control, by the key's kind of value. */
function ConfigureControl({
  mode,
  k,
  value,
  onChange,
  picks,
}: {
  mode: 'table' | 'form';
  k: string;
  value: unknown;
  onChange: (v: unknown) => void;
  picks: PickLists;
}): ReactNode {
  if (CONFIGURE_BOOLEAN_KEYS.has(k))
    return <Switch size="small" checked={boolOf(value)} onChange={(v) => onChange(v)} aria-label={LABELS[k]} />;
  if (CONFIGURE_NUMBER_KEYS.has(k))
    return (
      <InputNumber
        size="small"
        value={numOf(value) ?? null}
        onChange={(v) => onChange(v ?? undefined)}
        style={{ width: 120 }}
        aria-label={LABELS[k]}
      />
    );
  switch (k) {
    case 'show':
      return mode === 'table' ? (
        <Switch
          size="small"
          checked={value === undefined || boolOf(value) || value === 3 || value === '3'}
          onChange={(v) => onChange(v ? 1 : 2)}
        />
      ) : (
        <Select size="small" style={{ width: 170 }} value={numOf(value) ?? 1} onChange={onChange} options={SHOW_OPTIONS} />
      );
    case 'align':
      return (
        <OptionalSelect
          width={100}
          value={value}
          onChange={onChange}
          options={[
            { value: 'left', label: '左' },
            { value: 'center', label: '中' },
            { value: 'right', label: '右' },
          ]}
        />
      );
    case 'dict':
      return picks.dictsLoaded ? (
        <Select
          size="small"
          showSearch
          allowClear
          style={{ width: 200 }}
          placeholder="选择字典"
          value={textOf(value) || undefined}
          onChange={(v) => onChange(v ?? '')}
          options={[...new Set([...picks.dicts, ...(textOf(value) ? [textOf(value)] : [])])].map((d) => ({ value: d, label: d }))}
          status={textOf(value) ? undefined : 'warning'}
        />
      ) : (
        <Input
          size="small"
          style={{ width: 200 }}
          placeholder="字典名称"
          value={textOf(value)}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    case 'validator':
      return (
        <OptionalSelect
          width={180}
          value={value}
          onChange={onChange}
          options={VALIDATOR_NAMES.map((v) => ({ value: v, label: v }))}
          placeholder="不校验"
        />
      );
    case 'timeFmt':
      return (
        <OptionalSelect
          width={200}
          value={value}
          onChange={onChange}
          options={['yyyy-MM-dd', 'yyyy-MM-dd hh:mm:ss'].map((v) => ({ value: v, label: v }))}
        />
      );
    case 'sportData_type':
      return (
        <Select
          size="small"
          style={{ width: 120 }}
          value={textOf(value) || 'list'}
          onChange={onChange}
          options={[
            { value: 'list', label: '列表' },
            { value: 'tree', label: '树' },
          ]}
        />
      );
    case 'fileType':
      return (
        <Select
          size="small"
          mode="tags"
          style={{ minWidth: 220 }}
          value={Array.isArray(value) ? value.map(String) : textOf(value) ? textOf(value).split(',') : []}
          onChange={(v: string[]) => onChange(v.length ? v : undefined)}
          tokenSeparators={[',', ' ']}
          placeholder="jpg, png, pdf"
        />
      );
    case 'sportData_params':
      return <RemoteParams value={Array.isArray(value) ? value : []} onChange={onChange} fieldNames={picks.fieldNames} />;
    default:
      return (
        <Input
          size="small"
          style={{ width: 220 }}
          value={textOf(value)}
          onChange={(e) => onChange(orAbsent(e.target.value))}
          aria-label={LABELS[k] ?? k}
        />
      );
  }
}

type Option = { value: string; label: string };

/** Where a remote parameter's value comes from: a fixed value (type 1) or another field (type 2). */
const PARAM_SOURCES: Option[] = [
  { value: '1', label: '固定值' },
  { value: '2', label: '取字段' },
];

/** sportData_params: each a fixed value (type 1) or another field's current value (type 2). */
function RemoteParams({
  value,
  onChange,
  fieldNames,
}: {
  value: unknown[];
  onChange: (v: unknown) => void;
  fieldNames: readonly string[];
}) {
  const rows = value.map((p) => (isRecord(p) ? p : {}));
  const set = (i: number, key: string, v: unknown) => onChange(rows.map((r, j) => (j === i ? { ...r, [key]: v } : r)));
  // A parameter's typed name or fixed value, and its picked source or field.
  const text = (i: number, key: 'key' | 'value', width: number, placeholder: string) => (
    <Input
      size="small"
      style={{ width }}
      placeholder={placeholder}
      value={textOf(rows[i]?.[key])}
      onChange={(e) => set(i, key, e.target.value)}
    />
  );
  const pick = (i: number, key: 'type' | 'value', width: number, value: string | undefined, options: Option[], placeholder?: string) => (
    <Select size="small" style={{ width }} value={value} onChange={(v) => set(i, key, v)} options={options} placeholder={placeholder} />
  );
  const fields = fieldNames.map((n) => ({ value: n, label: n }));
  return (
    <Space orientation="vertical" size={4}>
      {rows.map((p, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: parameters are edited in place by position
        <Space key={i} size={4}>
          {text(i, 'key', 120, '参数名')}
          {pick(i, 'type', 100, textOf(p.type) || '1', PARAM_SOURCES)}
          {textOf(p.type) === '2' ? pick(i, 'value', 140, textOf(p.value) || undefined, fields, '字段') : text(i, 'value', 140, '值')}
          <Button
            size="small"
            type="text"
            danger
            icon={<DeleteOutlined />}
            aria-label="删除参数"
            onClick={() => onChange(rows.filter((_, j) => j !== i))}
          />
        </Space>
      ))}
      <Button size="small" type="dashed" icon={<PlusOutlined />} onClick={() => onChange([...rows, { key: '', type: '1', value: '' }])}>
        添加参数
      </Button>
    </Space>
  );
}

/** showRelation / requiredRelation: the fields it controls and the trigger value. */
function RelationControl({
  value,
  onChange,
  fieldNames,
}: {
  value: unknown;
  onChange: (v: unknown) => void;
  fieldNames: readonly string[];
}) {
  const rel = isRecord(value) ? value : {};
  const items = Array.isArray(rel.item) ? rel.item.map(String) : textOf(rel.item) ? textOf(rel.item).split(',') : [];
  const set = (next: { item: string[]; value: string }) => onChange(next.item.length || next.value ? { ...rel, ...next } : undefined);
  return (
    <Space size={4} wrap>
      <Select
        size="small"
        mode="multiple"
        style={{ minWidth: 220 }}
        placeholder="受控字段"
        value={items}
        onChange={(v: string[]) => set({ item: v, value: textOf(rel.value) })}
        options={fieldNames.map((n) => ({ value: n, label: n }))}
      />
      <Input
        size="small"
        style={{ width: 120 }}
        placeholder="触发值"
        value={textOf(rel.value)}
        onChange={(e) => set({ item: items, value: e.target.value })}
      />
    </Space>
  );
}

/** One configure key below its row: its label and key, its control, and its problem. */
function ConfigItem({
  k,
  label,
  pointer,
  problems,
  wide,
  children,
}: {
  k: string;
  label: string;
  pointer: string;
  problems: readonly Problem[];
  wide?: boolean;
  children: ReactNode;
}) {
  const st = statusOf(problems, `${pointer}/configure/${k}`);
  return (
    <div className={wide ? 'designer-config-item designer-config-wide' : 'designer-config-item'} data-key={k}>
      <Typography.Text type="secondary">
        {label} <code>{k}</code>
      </Typography.Text>
      {children}
      {st.help ? <div className={st.validateStatus === 'error' ? 'designer-error' : 'designer-warning'}>{st.help}</div> : null}
    </div>
  );
}

interface RowProps {
  mode: 'table' | 'form';
  index: number;
  count: number;
  field: Json;
  pointer: string;
  problems: readonly Problem[];
  picks: PickLists;
  open: boolean;
  onToggle: (index: number) => void;
  onEdit: (index: number, next: Json) => void;
  onMove: (from: number, to: number) => void;
  onRemove: (index: number) => void;
  dragFrom: React.RefObject<number | null>;
}

/** One field as a row: handle, name, label, kind and the main switches; its other keys open below it. */
const FieldRow = memo(function FieldRow({
  mode,
  index,
  count,
  field,
  pointer,
  problems,
  picks,
  open,
  onToggle,
  onEdit,
  onMove,
  onRemove,
  dragFrom,
}: RowProps) {
  const kind = kindOf(field);
  const c = configureOf(field);
  const conf = (key: string, v: unknown) => onEdit(index, setConfigure(field, key, v));
  const [over, setOver] = useState(false);
  const keys = mode === 'table' ? tableKeysOf(kind) : formKeysOf(kind);
  const inline = mode === 'table' ? ['search', 'show'] : ['required', 'show'];
  const more = keys.filter((k) => !inline.includes(k));
  // The name and the Chinese name, typed in the row; a problem at the key marks its input.
  const textCell = (key: 'name' | 'chName', label: string) => (
    <td>
      <Input
        size="small"
        value={textOf(field[key])}
        status={statusOf(problems, `${pointer}/${key}`).validateStatus}
        onChange={(e) => onEdit(index, { ...field, [key]: e.target.value })}
        aria-label={label}
        data-cell={key}
      />
    </td>
  );
  return (
    <>
      <tr
        className={over ? 'designer-row designer-row-over' : 'designer-row'}
        data-row={index}
        onDragOver={(e) => {
          if (dragFrom.current === null) return;
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          if (dragFrom.current !== null) onMove(dragFrom.current, index);
          dragFrom.current = null;
        }}
      >
        <td className="designer-handle">
          {/* biome-ignore lint/a11y/noStaticElementInteractions: a mouse drag handle; the ↑↓ buttons beside it reorder by keyboard */}
          <span
            draggable
            title="拖动排序"
            style={{ cursor: 'grab', padding: '0 4px' }}
            onDragStart={(e) => {
              dragFrom.current = index;
              e.dataTransfer.effectAllowed = 'move';
              e.dataTransfer.setData('text/plain', String(index));
            }}
            onDragEnd={() => {
              dragFrom.current = null;
            }}
          >
            <HolderOutlined />
          </span>
          <Button
            size="small"
            type="text"
            icon={<ArrowUpOutlined />}
            disabled={index === 0}
            aria-label="上移"
            onClick={() => onMove(index, index - 1)}
          />
          <Button
            size="small"
            type="text"
            icon={<ArrowDownOutlined />}
            disabled={index === count - 1}
            aria-label="下移"
            onClick={() => onMove(index, index + 1)}
          />
        </td>
        {textCell('name', '字段名')}
        {textCell('chName', '中文名')}
        <td>
          <Select
            size="small"
            style={{ width: 110 }}
            value={kind}
            onChange={(k: FieldKind) => onEdit(index, withKind(field, k))}
            options={FIELD_KINDS.map((k) => ({ value: k.kind, label: k.label }))}
            aria-label="字段类型"
          />
        </td>
        {inline.map((k) => (
          <td key={k}>
            <ConfigureControl mode={mode} k={k} value={c[k]} onChange={(v) => conf(k, v)} picks={picks} />
          </td>
        ))}
        <td style={{ maxWidth: 260 }}>
          <CellProblems problems={problems} pointer={pointer} />
        </td>
        <td className="designer-actions">
          <Tooltip title="更多配置">
            <Button
              size="small"
              type={open ? 'primary' : 'text'}
              icon={<SettingOutlined />}
              aria-label="更多配置"
              aria-expanded={open}
              onClick={() => onToggle(index)}
            />
          </Tooltip>
          <Popconfirm
            title={`删除字段「${textOf(field.chName) || textOf(field.name)}」？`}
            okText="删除"
            cancelText="取消"
            onConfirm={() => onRemove(index)}
          >
            <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label="删除字段" />
          </Popconfirm>
        </td>
      </tr>
      {open ? (
        <tr className="designer-row-config">
          <td />
          <td colSpan={inline.length + 5}>
            <div className="designer-config-grid">
              {more.map((k) => (
                <ConfigItem key={k} k={k} label={LABELS[k] ?? k} pointer={pointer} problems={problems}>
                  <div>
                    <ConfigureControl mode={mode} k={k} value={c[k]} onChange={(v) => conf(k, v)} picks={picks} />
                  </div>
                </ConfigItem>
              ))}
              {mode === 'form'
                ? (['showRelation', 'requiredRelation'] as const).map((k) => (
                    <ConfigItem
                      key={k}
                      k={k}
                      label={k === 'showRelation' ? '显示联动' : '必填联动'}
                      pointer={pointer}
                      problems={problems}
                      wide
                    >
                      <RelationControl
                        value={c[k]}
                        onChange={(v) => conf(k, v)}
                        fieldNames={picks.fieldNames.filter((n) => n !== field.name)}
                      />
                    </ConfigItem>
                  ))
                : null}
            </div>
          </td>
        </tr>
      ) : null}
    </>
  );
});

const sameProblems = (a: readonly Problem[], b: readonly Problem[]) =>
  a.length === b.length && a.every((p, i) => p.pointer === b[i]?.pointer && p.code === b[i]?.code && p.message === b[i]?.message);

/** A field list (tableOption or formOption) as an editable table: drag or ↑↓ to reorder. */
export function FieldTable({
  mode,
  list,
  pointer,
  problems,
  picks,
  onChange,
}: {
  mode: 'table' | 'form';
  list: readonly Json[];
  pointer: string;
  problems: readonly Problem[];
  picks: PickLists;
  onChange: (next: Json[]) => void;
}) {
  const [openRows, setOpenRows] = useState<ReadonlySet<number>>(new Set());
  const dragFrom = useRef<number | null>(null);
  const latest = useRef(list);
  latest.current = list;
  const onEdit = useCallback((i: number, next: Json) => onChange(latest.current.map((f, j) => (j === i ? next : f))), [onChange]);
  const onMove = useCallback(
    (from: number, to: number) => {
      onChange(moveItem(latest.current, from, to));
      setOpenRows((s) => (s.has(from) ? new Set([to]) : s.size ? new Set() : s));
    },
    [onChange],
  );
  const onRemove = useCallback(
    (i: number) => {
      onChange(renumber(latest.current.filter((_, j) => j !== i)));
      setOpenRows(new Set());
    },
    [onChange],
  );
  const onToggle = useCallback(
    (i: number) =>
      setOpenRows((s) => {
        const n = new Set(s);
        if (n.has(i)) n.delete(i);
        else n.add(i);
        return n;
      }),
    [],
  );
  // Each row gets only its own problems, so an edit redraws the rows it touched.
  const previous = useRef<Problem[][]>([]);
  const byRow = useMemo(() => {
    const next = list.map((_, i) => {
      const here = problemsAt(problems, `${pointer}/${i}`);
      const before = previous.current[i];
      return before && sameProblems(before, here) ? before : here;
    });
    previous.current = next;
    return next;
  }, [list, problems, pointer]);
  const inline = mode === 'table' ? ['搜索', '显示'] : ['必填', '显示'];
  return (
    <div className="designer-grid-wrap">
      <table className="designer-grid" data-list={mode}>
        <thead>
          <tr>
            <th style={{ width: 96 }}>排序</th>
            <th>字段名</th>
            <th>中文名</th>
            <th>类型</th>
            {inline.map((h) => (
              <th key={h}>{h}</th>
            ))}
            <th>问题</th>
            <th style={{ width: 72 }} />
          </tr>
        </thead>
        <tbody>
          {list.map((f, i) => (
            <FieldRow
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place by position; a move swaps their contents
              key={i}
              mode={mode}
              index={i}
              count={list.length}
              field={f}
              pointer={`${pointer}/${i}`}
              problems={byRow[i] ?? []}
              picks={picks}
              open={openRows.has(i)}
              onToggle={onToggle}
              onEdit={onEdit}
              onMove={onMove}
              onRemove={onRemove}
              dragFrom={dragFrom}
            />
          ))}
        </tbody>
      </table>
      {list.length === 0 ? <Empty description="还没有字段" image={Empty.PRESENTED_IMAGE_SIMPLE} /> : null}
      <Button
        type="dashed"
        block
        icon={<PlusOutlined />}
        style={{ marginTop: 8 }}
        onClick={() => onChange([...latest.current, newField(latest.current)])}
      >
        添加字段
      </Button>
    </div>
  );
}
