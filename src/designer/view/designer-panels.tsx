import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, Empty, Form, Input, InputNumber, Popconfirm, Row, Select, Space, Switch, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { general } from '../../contract/general';
import { isRecord, type Problem } from '../../model/index';
import { choices } from '../../shared/choices';
import {
  boolOf,
  configureOf,
  type Json,
  moveItem,
  newButton,
  numOf,
  orAbsent,
  problemsAt,
  renumber,
  setConfigure,
  setKey,
  type Template,
  textOf,
} from './designer-model';
import { Cell, CellProblems, problemLine } from './problem-ui';

/** The import call a view uses when it names none, its view shown as a placeholder. */
const IMPORT_ADDRESS = general.calls.import.path.replace(':viewId', '{视图ID}');

const BASIC_SWITCHES: [string, string][] = [
  ['add', '新增'],
  ['edit', '编辑'],
  ['del', '删除'],
  ['look', '查看'],
  ['download', '导出'],
  ['import', '导入'],
  ['template', '下载模板'],
  ['orderNumber', '序号列'],
  ['operation', '操作列'],
];

/** 基本设置: the view's name and component name, its buttons and columns, default sort and import address. */
export function BasicPanel({
  name,
  componentName,
  basic,
  fieldNames,
  problems,
  onName,
  onComponentName,
  onChange,
}: {
  name: string;
  componentName: string;
  basic: Json;
  fieldNames: readonly string[];
  problems: readonly Problem[];
  onName: (v: string) => void;
  onComponentName: (v: string) => void;
  onChange: (next: Json) => void;
}) {
  const p = '/disTemplate/basicOption';
  const set = (k: string, v: unknown) => onChange(setKey(basic, k, v));
  return (
    <Form layout="vertical" component="div">
      <Row gutter={16}>
        <Col span={12}>
          <Cell label="视图名称（页面标题）" pointer="/name" problems={problems}>
            <Input value={name} onChange={(e) => onName(e.target.value)} />
          </Cell>
        </Col>
        <Col span={12}>
          <Cell label="组件名称（权限前缀与路由名）" pointer="/disMenu/componentName" problems={problems}>
            <Input value={componentName} onChange={(e) => onComponentName(e.target.value)} data-cell="componentName" />
          </Cell>
        </Col>
      </Row>
      <Typography.Title level={5}>按钮与列</Typography.Title>
      <Space wrap size={[24, 8]} style={{ marginBottom: 16 }}>
        {BASIC_SWITCHES.map(([k, label]) => (
          <span key={k} style={{ display: 'inline-flex', gap: 6, alignItems: 'center' }}>
            <Switch size="small" checked={boolOf(basic[k])} onChange={(v) => set(k, v)} aria-label={label} />
            {label}
            <CellProblems problems={problems} pointer={`${p}/${k}`} />
          </span>
        ))}
      </Space>
      <Row gutter={16}>
        <Col span={8}>
          <Cell label="操作列宽度（px）" pointer={`${p}/operationWidth`} problems={problems}>
            <InputNumber
              min={40}
              style={{ width: '100%' }}
              value={numOf(basic.operationWidth) ?? null}
              onChange={(v) => set('operationWidth', v ?? undefined)}
            />
          </Cell>
        </Col>
        <Col span={8}>
          <Cell label="默认排序字段" pointer={`${p}/sortName`} problems={problems}>
            <Select
              allowClear
              showSearch
              value={textOf(basic.sortName) || undefined}
              placeholder="id"
              onChange={(v) => set('sortName', v ?? undefined)}
              options={[...new Set(['id', 'createTime', ...fieldNames, ...(textOf(basic.sortName) ? [textOf(basic.sortName)] : [])])].map(
                (n) => ({
                  value: n,
                  label: n,
                }),
              )}
            />
          </Cell>
        </Col>
        <Col span={8}>
          <Cell label="排序方向" pointer={`${p}/sortType`} problems={problems}>
            <Select
              value={textOf(basic.sortType) || 'desc'}
              onChange={(v) => set('sortType', v)}
              options={[
                { value: 'desc', label: '降序 desc' },
                { value: 'asc', label: '升序 asc' },
              ]}
            />
          </Cell>
        </Col>
      </Row>
      <Cell label="导入地址（importSubmitUrl）" pointer={`${p}/importSubmitUrl`} problems={problems} extra={`留空则使用 ${IMPORT_ADDRESS}`}>
        <Input value={textOf(basic.importSubmitUrl)} onChange={(e) => set('importSubmitUrl', orAbsent(e.target.value))} />
      </Cell>
    </Form>
  );
}

/** 弹窗设置: the add/edit dialog's layout and addresses. */
export function DialogPanel({
  dialog,
  fieldNames,
  problems,
  onChange,
}: {
  dialog: Json;
  fieldNames: readonly string[];
  problems: readonly Problem[];
  onChange: (next: Json) => void;
}) {
  const p = '/disTemplate/dialogOption';
  const set = (k: string, v: unknown) => onChange(setKey(dialog, k, v));
  const text = (k: string, label: string, extra?: string) => (
    <Cell label={label} pointer={`${p}/${k}`} problems={problems} extra={extra}>
      <Input value={textOf(dialog[k])} onChange={(e) => set(k, orAbsent(e.target.value))} />
    </Cell>
  );
  return (
    <Form layout="vertical" component="div">
      <Row gutter={16}>
        <Col span={8}>{text('width', '弹窗宽度', '像素或百分比，如 800 或 60%')}</Col>
        <Col span={8}>{text('labelWidth', '标签宽度')}</Col>
        <Col span={8}>{text('inputWidth', '输入框宽度')}</Col>
      </Row>
      <Space size={24} style={{ marginBottom: 16 }}>
        <span style={{ display: 'inline-flex', gap: 6 }}>
          <Switch size="small" checked={boolOf(dialog.inline)} onChange={(v) => set('inline', v)} aria-label="每行两个输入框" />
          每行两个输入框（inline）
        </span>
        <span style={{ display: 'inline-flex', gap: 6 }}>
          <Switch size="small" checked={boolOf(dialog.initGroovy)} onChange={(v) => set('initGroovy', v)} aria-label="新增时加载初始值" />
          新增时加载初始值（initGroovy）
        </span>
      </Space>
      <Row gutter={16}>
        <Col span={12}>{text('submitUrl', '提交地址（submitUrl）', '留空则使用通用新增/修改接口')}</Col>
        <Col span={12}>{text('detailUrl', '详情地址（detailUrl）')}</Col>
        <Col span={8}>
          <Cell label="主键字段（key）" pointer={`${p}/key`} problems={problems}>
            <Select
              allowClear
              value={textOf(dialog.key) || undefined}
              placeholder="id"
              onChange={(v) => set('key', v ?? undefined)}
              options={[...new Set(['id', ...fieldNames])].map((n) => ({ value: n, label: n }))}
            />
          </Cell>
        </Col>
        <Col span={8}>{text('export', '导出地址（export）')}</Col>
        <Col span={8}>{text('suffix', '后缀（suffix）')}</Col>
      </Row>
    </Form>
  );
}

/** 分隔线: a titled divider before a form field. */
export function DividerPanel({
  list,
  fieldNames,
  problems,
  onChange,
}: {
  list: Json[];
  fieldNames: readonly string[];
  problems: readonly Problem[];
  onChange: (next: Json[]) => void;
}) {
  const p = '/disTemplate/formDividerOption';
  const set = (i: number, k: string, v: unknown) => onChange(list.map((d, j) => (j === i ? setKey(d, k, v) : d)));
  return (
    <div>
      {list.length === 0 ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有分隔线" /> : null}
      {list.map((d, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: dividers are edited in place by position
        <Space key={i} align="start" style={{ display: 'flex', marginBottom: 8 }} wrap>
          <Select
            style={{ width: 200 }}
            placeholder="在此字段之前"
            value={d.position === undefined || d.position === '' ? undefined : textOf(d.position)}
            onChange={(v) => set(i, 'position', v)}
            options={fieldNames.map((n) => ({ value: n, label: n }))}
            status={problemsAt(problems, `${p}/${i}/position`).length ? 'error' : undefined}
          />
          <Input
            style={{ width: 200 }}
            placeholder="标题，如 基本信息"
            value={textOf(d.chName)}
            onChange={(e) => set(i, 'chName', e.target.value)}
          />
          <Button
            danger
            type="text"
            icon={<DeleteOutlined />}
            aria-label="删除分隔线"
            onClick={() => onChange(list.filter((_, j) => j !== i))}
          />
          <CellProblems problems={problems} pointer={`${p}/${i}`} />
        </Space>
      ))}
      <Button
        type="dashed"
        icon={<PlusOutlined />}
        onClick={() => onChange([...list, { position: fieldNames[0] ?? 0, chName: '基本信息' }])}
      >
        添加分隔线
      </Button>
    </div>
  );
}

const ACTIONS = choices({
  submit: '提交接口 submit',
  groovy: '脚本 groovy',
  dialog: '弹窗视图 dialog',
  view: '跳转视图 view',
  website: '外部链接 website',
  system: '站内页面 system',
});

/** 自定义按钮: toolbar (fun) and row (opt) buttons with their six actions. */
export function ButtonPanel({
  list,
  fieldNames,
  views,
  problems,
  onChange,
}: {
  list: Json[];
  fieldNames: readonly string[];
  views: readonly { id: number; name: string }[];
  problems: readonly Problem[];
  onChange: (next: Json[]) => void;
}) {
  const p = '/disTemplate/btnDIYOption';
  const edit = (i: number, next: Json) => onChange(list.map((b, j) => (j === i ? next : b)));
  return (
    <div>
      {list.length === 0 ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有自定义按钮" /> : null}
      {list.map((b, i) => {
        const c = configureOf(b);
        const conf = (k: string, v: unknown) => edit(i, setConfigure(b, k, v));
        const at = `${p}/${i}`;
        const action = textOf(c.action) || 'submit';
        const text = (k: string, label: string, extra?: string) => (
          <Cell label={label} pointer={`${at}/configure/${k}`} problems={problems} extra={extra}>
            <Input value={textOf(c[k])} onChange={(e) => conf(k, orAbsent(e.target.value))} />
          </Cell>
        );
        const choice = (k: string, label: string, fallback: string, options: { value: string; label: string }[]) => (
          <Cell label={label} pointer={`${at}/configure/${k}`} problems={problems}>
            <Select value={textOf(c[k]) || fallback} onChange={(v) => conf(k, v)} options={options} />
          </Cell>
        );
        return (
          <Card
            // biome-ignore lint/suspicious/noArrayIndexKey: buttons are edited in place by position
            key={i}
            size="small"
            style={{ marginBottom: 12 }}
            title={`${textOf(b.chName) || '未命名按钮'}（${textOf(b.name)}）`}
            extra={
              <Space size={0}>
                <Button
                  size="small"
                  type="text"
                  icon={<ArrowUpOutlined />}
                  aria-label="上移"
                  disabled={i === 0}
                  onClick={() => onChange(moveItem(list, i, i - 1))}
                />
                <Button
                  size="small"
                  type="text"
                  icon={<ArrowDownOutlined />}
                  aria-label="下移"
                  disabled={i === list.length - 1}
                  onClick={() => onChange(moveItem(list, i, i + 1))}
                />
                <Popconfirm
                  title="删除这个按钮？"
                  okText="删除"
                  cancelText="取消"
                  onConfirm={() => onChange(renumber(list.filter((_, j) => j !== i)))}
                >
                  <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label="删除按钮" />
                </Popconfirm>
              </Space>
            }
          >
            <Form layout="vertical" component="div">
              <Row gutter={12}>
                <Col span={6}>
                  <Cell label="标识（name）" pointer={`${at}/name`} problems={problems}>
                    <Input value={textOf(b.name)} onChange={(e) => edit(i, { ...b, name: e.target.value })} />
                  </Cell>
                </Col>
                <Col span={6}>
                  <Cell label="按钮文字" pointer={`${at}/chName`} problems={problems}>
                    <Input value={textOf(b.chName)} onChange={(e) => edit(i, { ...b, chName: e.target.value })} />
                  </Cell>
                </Col>
                <Col span={6}>
                  {choice('position', '位置', 'opt', [
                    { value: 'fun', label: '工具栏 fun' },
                    { value: 'opt', label: '行操作 opt' },
                  ])}
                </Col>
                <Col span={6}>{choice('action', '动作', 'submit', ACTIONS)}</Col>
                {action === 'submit' ? (
                  <>
                    <Col span={6}>
                      {choice(
                        'submitType',
                        '请求方式',
                        'post',
                        ['get', 'post', 'download'].map((v) => ({ value: v, label: v })),
                      )}
                    </Col>
                    <Col span={18}>{text('submitUrl', '接口地址（submitUrl）')}</Col>
                  </>
                ) : null}
                {action === 'groovy' ? <Col span={12}>{text('groovyAction', '脚本动作（groovyAction）')}</Col> : null}
                {action === 'dialog' || action === 'view' ? (
                  <>
                    <Col span={12}>
                      <Cell label="视图" pointer={`${at}/configure/view`} problems={problems}>
                        <Select
                          showSearch
                          optionFilterProp="label"
                          value={numOf(c.view)}
                          onChange={(v) => conf('view', v)}
                          options={views.map((v) => ({ value: v.id, label: `${v.id} ${v.name}` }))}
                          placeholder="选择视图"
                        />
                      </Cell>
                    </Col>
                    {action === 'view' ? (
                      <Col span={12}>{text('foreignKey', '外键参数（foreignKey）', '跳转时带上 ?外键=行ID')}</Col>
                    ) : null}
                  </>
                ) : null}
                {action === 'dialog' || action === 'view' || action === 'system' ? (
                  <Col span={12}>{text('linkField', '关联字段（linkField）', '本行保存关联记录 ID 的字段：只读打开该条记录')}</Col>
                ) : null}
                {action === 'website' || action === 'system' ? (
                  <Col span={24}>
                    {text(
                      'websiteUrl',
                      action === 'website' ? '链接地址（websiteUrl）' : '站内路径（websiteUrl）',
                      action === 'system' ? '如 /qrcode/print，带上当前查询与 rowId' : undefined,
                    )}
                  </Col>
                ) : null}
                <Col span={6}>
                  <Space style={{ marginTop: 8 }}>
                    <Switch size="small" checked={boolOf(c.confirm)} onChange={(v) => conf('confirm', v)} />
                    操作前确认
                  </Space>
                </Col>
                {textOf(c.position) === 'fun' ? (
                  <Col span={6}>
                    <Space style={{ marginTop: 8 }}>
                      <Switch size="small" checked={boolOf(c.multiple)} onChange={(v) => conf('multiple', v)} />
                      可多选
                    </Space>
                  </Col>
                ) : null}
                <Col span={12}>
                  <Cell label="可见角色/权限（root）" pointer={`${at}/configure/root`} problems={problems}>
                    <Select
                      mode="tags"
                      value={Array.isArray(c.root) ? c.root.map(String) : textOf(c.root) ? textOf(c.root).split(',') : []}
                      onChange={(v: string[]) => conf('root', v.length ? v : undefined)}
                      tokenSeparators={[',']}
                      placeholder="留空则所有人可见；admin 总是可见"
                    />
                  </Cell>
                </Col>
                {textOf(c.position) !== 'fun' ? (
                  <>
                    <Col span={12}>
                      <Cell label="仅当字段（showRelation_item）" pointer={`${at}/configure/showRelation_item`} problems={problems}>
                        <Select
                          allowClear
                          value={textOf(c.showRelation_item) || undefined}
                          onChange={(v) => conf('showRelation_item', v ?? undefined)}
                          options={fieldNames.map((n) => ({ value: n, label: n }))}
                        />
                      </Cell>
                    </Col>
                    <Col span={12}>{text('showRelation_value', '等于（showRelation_value）')}</Col>
                  </>
                ) : null}
              </Row>
              <CellProblems problems={problems.filter((x) => x.pointer === at)} pointer={at} />
            </Form>
          </Card>
        );
      })}
      <Button type="dashed" icon={<PlusOutlined />} onClick={() => onChange([...list, newButton(list)])}>
        添加按钮
      </Button>
    </div>
  );
}

/**
 * JSON: the template as text, for power users. A valid object replaces the designer's document as it
 * is typed; text that does not parse is kept (also when the tab is left) with its error, and blocks
 * saving until it is fixed.
 */
export function JsonPanel({
  template,
  diagnoseRaw,
  draft,
  onTemplate,
  onDraft,
}: {
  template: Template;
  /** The problems of a template as typed: pointers into this text, not the designer's sorted lists. */
  diagnoseRaw: (raw: Json) => Problem[];
  /** Text that does not parse yet, with its error. */
  draft: { text: string; error: string } | undefined;
  onTemplate: (raw: Json) => void;
  onDraft: (draft: { text: string; error: string } | undefined) => void;
}) {
  const [text, setText] = useState(() => draft?.text ?? JSON.stringify(template, null, 2));
  const [parsed, setParsed] = useState<Json>(template);
  const problems = useMemo(() => diagnoseRaw(parsed), [diagnoseRaw, parsed]);
  return (
    <div>
      {draft ? <Alert type="error" showIcon title={`E_JSON: ${draft.error}`} style={{ marginBottom: 8 }} data-json-error /> : null}
      <Input.TextArea
        value={text}
        spellCheck={false}
        aria-label="模板 JSON"
        autoSize={{ minRows: 18, maxRows: 40 }}
        style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 12 }}
        onChange={(e) => {
          const next = e.target.value;
          setText(next);
          try {
            const v = JSON.parse(next) as unknown;
            if (!isRecord(v)) throw new Error('模板必须是一个 JSON 对象');
            onDraft(undefined);
            setParsed(v);
            onTemplate(v);
          } catch (err) {
            onDraft({ text: next, error: err instanceof Error ? err.message : String(err) });
          }
        }}
      />
      {problems.length ? (
        <ul className="designer-problem-list" style={{ marginTop: 8 }}>
          {problems.map((x) => (
            <li key={`${x.pointer}:${x.code}:${x.message}`} className={x.code.startsWith('W_') ? 'designer-warning' : 'designer-error'}>
              <Typography.Text code>{x.pointer || '/'}</Typography.Text> {problemLine(x)}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
