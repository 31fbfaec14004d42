import { DownOutlined, ReloadOutlined, SearchOutlined, UpOutlined } from '@ant-design/icons';
import { Button, Cascader, DatePicker, Form, Input, InputNumber, Select, Space, TreeSelect } from 'antd';
import type { Dayjs } from 'dayjs';
import { memo, useState } from 'react';
import { type ColumnModel, DEFAULT_TIME_FORMAT } from '../../model';
import { useDict, useRegionTree, useRemoteOptions } from '../options';

/** Inputs shown while the bar is collapsed; the rest appear on 展开. */
export const COLLAPSED_INPUTS = 3;
export const CREATE_TIME_FIELD = '__createTime';

const INPUT_STYLE = { width: 200 };

export interface SearchSubmit {
  /** Raw input values by field name. */
  values: Record<string, unknown>;
  range: [Dayjs, Dayjs] | null;
}

/** What the search bar's form gives each input. */
interface SearchProps {
  column: ColumnModel;
  id?: string;
  value?: unknown;
  onChange?: (v: unknown) => void;
}

/** A pick-one search input over value/label options (a dictionary's entries, a remote list). */
function ChoiceSearch({
  column,
  options,
  loading,
  ...rest
}: SearchProps & { options: readonly { value: string; label: string }[]; loading: boolean }) {
  return (
    <Select
      {...rest}
      // Several choices at once come from an address (a dashboard tile's statuses); a pick is one.
      mode={Array.isArray(rest.value) ? 'multiple' : undefined}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      loading={loading}
      placeholder={`请选择${column.label}`}
      style={INPUT_STYLE}
      options={options.map((o) => ({ value: o.value, label: o.label }))}
    />
  );
}

function DictSearch(props: SearchProps) {
  const { entries, status } = useDict(props.column.dict);
  return <ChoiceSearch {...props} options={entries} loading={status === 'loading'} />;
}

function RemoteSearch(props: SearchProps) {
  const { column, ...rest } = props;
  // The search bar has no form values for type-2 parameters: their fixed parameters only.
  const { options, status } = useRemoteOptions(column.remote, {});
  if (column.remote?.tree)
    return (
      <TreeSelect
        {...rest}
        multiple={Array.isArray(rest.value)}
        allowClear
        showSearch={{ treeNodeFilterProp: 'label' }}
        placeholder={`请选择${column.label}`}
        style={INPUT_STYLE}
        // Remote options are already value/label/children trees (options/remote-options.ts), as the form's TreeSelect reads them.
        treeData={options}
        fieldNames={{ label: 'label', value: 'value', children: 'children' }}
      />
    );
  return <ChoiceSearch {...props} options={options} loading={status === 'loading'} />;
}

function CitySearch({ column, ...rest }: SearchProps) {
  const { options } = useRegionTree();
  return (
    <Cascader
      {...(rest as object)}
      changeOnSelect
      allowClear
      placeholder={`请选择${column.label}`}
      style={INPUT_STYLE}
      // Regions are value/label/children trees already, the shape Cascader reads (as the form's city field does).
      options={options}
    />
  );
}

/** One search input, by the column's searchKind. */
export function SearchInput(props: SearchProps) {
  const { column, ...rest } = props;
  switch (column.searchKind) {
    case 'dict':
      return <DictSearch {...props} />;
    case 'remote':
      return <RemoteSearch {...props} />;
    case 'city':
      return <CitySearch {...props} />;
    case 'date':
      return <DatePicker.RangePicker {...(rest as object)} style={{ width: 240 }} placeholder={['开始日期', '结束日期']} />;
    case 'number':
      return <InputNumber {...(rest as object)} style={INPUT_STYLE} placeholder={`请输入${column.label}`} />;
    default:
      return <Input {...(rest as object)} allowClear style={INPUT_STYLE} placeholder={`请输入${column.label}`} />;
  }
}

/** Whether a search input shows a value (not an empty text or list). */
const filled = (v: unknown) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

/**
 * The search bar: every column with `search` (all columns in the advanced query), the 创建时间 range
 * unless the list has none (a declared createTime search column is drawn as that range), 搜索, 重置
 * and 展开/收起. Enter searches. It starts with the search the page opened with (its address, or the
 * list's default range) and starts expanded when that fills an input the collapsed bar hides, so a
 * filter that narrows the list is always in sight. 重置 goes back to the list's default.
 * Memoised: the page draws it again only when its columns, range or handlers change.
 */
export const SearchBar = memo(function SearchBar({
  columns: allColumns,
  range,
  initial,
  resetRange,
  showAll = false,
  onSearch,
  onReset,
}: {
  columns: readonly ColumnModel[];
  /** Every input at once (the advanced query), whatever 展开/收起 says. */
  showAll?: boolean;
  /** Whether the list has the 创建时间 range. */
  range: boolean;
  /** The values and range the bar starts with. */
  initial: SearchSubmit;
  /** The range 重置 goes back to: the list's default, or none. */
  resetRange: [Dayjs, Dayjs] | null;
  onSearch: (s: SearchSubmit) => void;
  onReset: (s: SearchSubmit) => void;
}) {
  const columns = range ? allColumns.filter((c) => c.name !== 'createTime') : allColumns;
  const [form] = Form.useForm();
  const total = columns.length + (range ? 1 : 0);
  const collapsible = total > COLLAPSED_INPUTS && !showAll;
  const collapsedCount = COLLAPSED_INPUTS - (range ? 1 : 0);
  const [expanded, setExpanded] = useState(() => columns.slice(collapsedCount).some((c) => filled(initial.values[c.name])));
  const shown = expanded || !collapsible ? columns : columns.slice(0, collapsedCount);

  const read = (raw: Record<string, unknown>): SearchSubmit => {
    const r = raw[CREATE_TIME_FIELD] as [Dayjs | null, Dayjs | null] | null | undefined;
    // Only this bar's inputs: a value typed in the advanced query does not linger once it is closed.
    const values = Object.fromEntries(columns.map((c) => [c.name, raw[c.name]]));
    return { values, range: r?.[0] && r[1] ? [r[0], r[1]] : null };
  };

  return (
    <Form
      form={form}
      layout="inline"
      className="engine-search-bar"
      style={{ rowGap: 12, marginBottom: 12 }}
      initialValues={{ ...initial.values, ...(range ? { [CREATE_TIME_FIELD]: initial.range } : {}) }}
      onFinish={() => onSearch(read(form.getFieldsValue(true)))}
    >
      {shown.map((c) => (
        <Form.Item key={c.name} name={c.name} label={c.label}>
          <SearchInput column={c} />
        </Form.Item>
      ))}
      {range && (
        <Form.Item name={CREATE_TIME_FIELD} label="创建时间">
          <DatePicker.RangePicker
            allowClear
            showTime={{ format: 'HH:mm:ss' }}
            format={DEFAULT_TIME_FORMAT}
            style={{ width: 360 }}
            placeholder={['开始时间', '结束时间']}
          />
        </Form.Item>
      )}
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
            搜索
          </Button>
          <Button
            icon={<ReloadOutlined />}
            onClick={() => {
              form.resetFields();
              form.setFieldsValue({
                ...Object.fromEntries(allColumns.map((c) => [c.name, undefined])),
                ...(range ? { [CREATE_TIME_FIELD]: resetRange } : {}),
              });
              onReset(read(form.getFieldsValue(true)));
            }}
          >
            重置
          </Button>
          {collapsible && (
            <Button
              type="link"
              onClick={() => setExpanded((e) => !e)}
              icon={expanded ? <UpOutlined /> : <DownOutlined />}
              aria-expanded={expanded}
            >
              {expanded ? '收起' : '展开'}
            </Button>
          )}
        </Space>
      </Form.Item>
    </Form>
  );
});
